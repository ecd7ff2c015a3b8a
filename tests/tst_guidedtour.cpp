// The guided tour: the TourPanel alone (stepping, "Show me", "Don't show again" kept in
// QSettings, the highlight frame, live retranslation) on steps made up here, then the
// workbench's tour in the main window (Help ▸ Guided tour, each step's "Show me" bringing
// its tab, dock or menu entry to the front) and the window with the tour open still
// fitting a laptop's 1280 × 800 screen, in English and Japanese. Settings go to a
// temporary folder.
#include "curvepanel.h"
#include "guidedtour.h"
#include "languagemanager.h"
#include "mainwindow.h"
#include "rescorebutton.h"
#include "rolloutbrowser.h"
#include "tourpanel.h"

#include <QAction>
#include <QCheckBox>
#include <QDockWidget>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using rwb::widgets::TourPanel;
using rwb::widgets::TourStep;

namespace {

// A laptop's 1280 × 800 screen less a title bar, a panel or a dock of the desktop
// (tst_windowsize's allowance).
constexpr int kMaxWidth = 1280;
constexpr int kMaxHeight = 760;

// The highlight frames TourPanel::highlight() put directly on `w`.
QList<QWidget *> highlightsOn(QWidget *w)
{
    return w->findChildren<QWidget *>(QStringLiteral("tourHighlight"), Qt::FindDirectChildrenOnly);
}

// Any highlight frame anywhere in `w`.
bool highlightedWithin(QWidget *w)
{
    return !highlightsOn(w).isEmpty() || !w->findChildren<QWidget *>(QStringLiteral("tourHighlight")).isEmpty();
}

// The top menu of `w`'s menu bar holding `action`.
QMenu *menuOf(QMainWindow &w, QAction *action)
{
    for (QAction *top : w.menuBar()->actions())
        if (top->menu() && top->menu()->actions().contains(action))
            return top->menu();
    return nullptr;
}

} // namespace

class TestGuidedTour : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void stepsThrough();
    void showMeCallsTheStepsFunction();
    void setStepsKeepsTheCurrentStep();
    void dismissalPersists();
    void highlightOutlinesForAWhile();
    void retranslatesLive();
    void windowTourShowsEachPlace();
    void windowTourFollowsTheLanguage();
    void fitsALaptopScreenWithTheTour_data();
    void fitsALaptopScreenWithTheTour();

private:
    // Three steps whose "Show me" count their calls in m_calls; the third has none.
    QList<TourStep> madeUpSteps(const QString &suffix = {});

    QTemporaryDir m_settings;
    QList<int> m_calls;
};

void TestGuidedTour::initTestCase()
{
    QVERIFY(m_settings.isValid());
    QCoreApplication::setOrganizationName(QStringLiteral("RewardWorkbenchTest"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_guidedtour"));
    QSettings::setDefaultFormat(QSettings::IniFormat);
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
    QVERIFY2(QSettings().fileName().startsWith(m_settings.path()), qPrintable(QSettings().fileName()));
}

void TestGuidedTour::init()
{
    QSettings().clear();
    m_calls = {0, 0, 0};
}

QList<TourStep> TestGuidedTour::madeUpSteps(const QString &suffix)
{
    return {{QStringLiteral("one"), QStringLiteral("First") + suffix, QStringLiteral("The first place."),
             [this] { ++m_calls[0]; }},
            {QStringLiteral("two"), QStringLiteral("Second") + suffix, QStringLiteral("The second place."),
             [this] { ++m_calls[1]; }},
            {QStringLiteral("three"), QStringLiteral("Third") + suffix, QStringLiteral("Nothing to show."), {}}};
}

void TestGuidedTour::stepsThrough()
{
    TourPanel panel;
    panel.setSteps(madeUpSteps());
    QVERIFY(!panel.isVisible()); // until started
    QSignalSpy changed(&panel, &TourPanel::currentChanged);
    QSignalSpy closed(&panel, &TourPanel::closed);
    panel.start();
    QVERIFY(panel.isVisible());
    QCOMPARE(panel.count(), 3);
    QCOMPARE(panel.currentIndex(), 0);
    QCOMPARE(panel.titleLabel()->text(), QStringLiteral("First"));
    QCOMPARE(panel.textLabel()->text(), QStringLiteral("The first place."));
    QVERIFY(!panel.backButton()->isEnabled());
    QCOMPARE(panel.nextButton()->text(), QStringLiteral("Next"));

    QTest::mouseClick(panel.nextButton(), Qt::LeftButton);
    QCOMPARE(panel.currentIndex(), 1);
    QCOMPARE(panel.currentId(), QStringLiteral("two"));
    QCOMPARE(panel.titleLabel()->text(), QStringLiteral("Second"));
    QVERIFY(panel.backButton()->isEnabled());
    QCOMPARE(changed.count(), 1);
    QCOMPARE(changed.last().at(0).toInt(), 1);

    QTest::mouseClick(panel.backButton(), Qt::LeftButton);
    QCOMPARE(panel.currentIndex(), 0);
    QTest::mouseClick(panel.backButton(), Qt::LeftButton); // disabled at the first step
    QCOMPARE(panel.currentIndex(), 0);

    panel.next();
    panel.next();
    QCOMPARE(panel.currentIndex(), 2);
    QCOMPARE(panel.titleLabel()->text(), QStringLiteral("Third"));
    QCOMPARE(panel.nextButton()->text(), QStringLiteral("Finish")); // the last step
    QVERIFY(panel.isVisible());
    QTest::mouseClick(panel.nextButton(), Qt::LeftButton);
    QVERIFY(!panel.isVisible());
    QCOMPARE(closed.count(), 1);

    // Opened again: from the first step.
    panel.start();
    QCOMPARE(panel.currentIndex(), 0);
    QVERIFY(panel.isVisible());
    QTest::mouseClick(panel.closeButton(), Qt::LeftButton);
    QVERIFY(!panel.isVisible());
    QCOMPARE(closed.count(), 2);
}

void TestGuidedTour::showMeCallsTheStepsFunction()
{
    TourPanel panel;
    panel.setSteps(madeUpSteps());
    panel.start();
    QVERIFY(panel.showMeButton()->isVisible());
    QTest::mouseClick(panel.showMeButton(), Qt::LeftButton);
    QCOMPARE(m_calls, (QList<int>{1, 0, 0}));
    panel.next();
    QTest::mouseClick(panel.showMeButton(), Qt::LeftButton);
    QTest::mouseClick(panel.showMeButton(), Qt::LeftButton);
    QCOMPARE(m_calls, (QList<int>{1, 2, 0}));
    QCOMPARE(panel.currentIndex(), 1); // "Show me" does not move the tour
    // A step without a function has no button, and showMe() does nothing.
    panel.next();
    QVERIFY(!panel.showMeButton()->isVisible());
    panel.showMe();
    QCOMPARE(m_calls, (QList<int>{1, 2, 0}));
}

void TestGuidedTour::setStepsKeepsTheCurrentStep()
{
    TourPanel panel;
    panel.setSteps(madeUpSteps());
    panel.start();
    panel.setCurrentIndex(2);
    // The same steps in another language: the same step, its new text.
    panel.setSteps(madeUpSteps(QStringLiteral(" (again)")));
    QCOMPARE(panel.currentIndex(), 2);
    QCOMPARE(panel.titleLabel()->text(), QStringLiteral("Third (again)"));
    // Other steps: the first.
    panel.setSteps({{QStringLiteral("other"), QStringLiteral("Other"), QStringLiteral("Else."), {}}});
    QCOMPARE(panel.currentIndex(), 0);
    QCOMPARE(panel.titleLabel()->text(), QStringLiteral("Other"));
    QCOMPARE(panel.nextButton()->text(), QStringLiteral("Finish"));
    // No steps at all: nothing to show, nothing breaks.
    panel.setSteps({});
    QCOMPARE(panel.count(), 0);
    QCOMPARE(panel.currentId(), QString());
    panel.showMe();
    panel.next();
    QVERIFY(!panel.isVisible());
}

void TestGuidedTour::dismissalPersists()
{
    {
        TourPanel panel;
        panel.setSteps(madeUpSteps());
        QVERIFY(!TourPanel::isDismissed());
        QVERIFY(panel.startUnlessDismissed());
        QVERIFY(panel.isVisible());
        QVERIFY(!panel.dontShowAgainBox()->isChecked());
        QTest::mouseClick(panel.dontShowAgainBox(), Qt::LeftButton);
        QVERIFY(panel.dontShowAgainBox()->isChecked());
        QTest::mouseClick(panel.closeButton(), Qt::LeftButton);
    }
    // Kept in the settings file, read by a panel of the next session.
    QSettings().sync();
    QVERIFY(QFile::exists(QSettings().fileName()));
    QCOMPARE(QSettings().value(TourPanel::kDontShowAgainKey).toBool(), true);
    {
        TourPanel panel;
        panel.setSteps(madeUpSteps());
        QVERIFY(TourPanel::isDismissed());
        QVERIFY(!panel.startUnlessDismissed());
        QVERIFY(!panel.isVisible());
        // Asked for (Help ▸ Guided tour), it opens anyway, the box still checked.
        panel.start();
        QVERIFY(panel.isVisible());
        QVERIFY(panel.dontShowAgainBox()->isChecked());
        QTest::mouseClick(panel.dontShowAgainBox(), Qt::LeftButton); // changed one's mind
    }
    QCOMPARE(QSettings().value(TourPanel::kDontShowAgainKey).toBool(), false);
    TourPanel panel;
    QVERIFY(panel.startUnlessDismissed());
}

void TestGuidedTour::highlightOutlinesForAWhile()
{
    QWidget target;
    target.resize(300, 200);
    auto *child = new QLabel(QStringLiteral("under the frame"), &target);
    target.show();
    QVERIFY(QTest::qWaitForWindowExposed(&target));
    TourPanel::highlight(&target, /*ms=*/300);
    QList<QWidget *> frames = highlightsOn(&target);
    QCOMPARE(frames.size(), 1);
    QVERIFY(frames[0]->isVisible());
    QCOMPARE(frames[0]->geometry(), target.rect());
    QVERIFY(frames[0]->testAttribute(Qt::WA_TransparentForMouseEvents));
    QVERIFY(target.childAt(5, 5) != frames[0]); // clicks go to what is under it
    Q_UNUSED(child);
    // It follows the widget's size, and highlighting again keeps one frame.
    target.resize(400, 250);
    QCOMPARE(frames[0]->geometry(), target.rect());
    TourPanel::highlight(&target, /*ms=*/300);
    QCOMPARE(highlightsOn(&target).size(), 1);
    // And goes after its time.
    QTRY_VERIFY_WITH_TIMEOUT(highlightsOn(&target).isEmpty(), 3000);
    TourPanel::highlight(nullptr); // nothing to outline: nothing happens
}

void TestGuidedTour::retranslatesLive()
{
    TourPanel panel;
    panel.setSteps(madeUpSteps());
    panel.start();
    QCOMPARE(panel.showMeButton()->text(), QStringLiteral("Show me"));
    LanguageManager lang;
    lang.setChoice(QStringLiteral("ja"));
    QCoreApplication::processEvents(); // the LanguageChange events
    QCOMPARE(panel.showMeButton()->text(), QString::fromUtf8("ここを表示"));
    QCOMPARE(panel.backButton()->text(), QString::fromUtf8("戻る"));
    QCOMPARE(panel.nextButton()->text(), QString::fromUtf8("次へ"));
    QCOMPARE(panel.dontShowAgainBox()->text(), QString::fromUtf8("次回から表示しない"));
    lang.setChoice(QStringLiteral("en"));
    QCoreApplication::processEvents();
    QCOMPARE(panel.showMeButton()->text(), QStringLiteral("Show me"));
}

void TestGuidedTour::windowTourShowsEachPlace()
{
    LanguageManager lang;
    lang.setChoice(QStringLiteral("en"));
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TourPanel *panel = w.tour()->panel();
    QVERIFY(!panel->isVisible()); // only --tour or Help opens it

    // Help ▸ Guided tour opens it.
    auto *help = w.findChild<QAction *>(QStringLiteral("helpGuidedTour"));
    QVERIFY(help);
    QVERIFY(menuOf(w, help));
    help->trigger();
    QVERIFY(panel->isVisible());
    QCOMPARE(panel->currentIndex(), 0);
    // Above the views, inside the central area.
    auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("views"));
    QVERIFY(tabs);
    QVERIFY(w.centralWidget()->isAncestorOf(panel));
    QVERIFY(panel->mapTo(&w, QPoint(0, 0)).y() < tabs->mapTo(&w, QPoint(0, 0)).y());

    QStringList ids;
    for (const TourStep &s : panel->steps())
        ids << s.id;
    QCOMPARE(ids, (QStringList{"designer", "training", "curves", "groups", "rollouts", "failures", "judge", "tokens",
                               "trees", "annotator", "runs", "jobs", "help"}));
    for (const TourStep &s : panel->steps()) {
        QVERIFY2(!s.title.isEmpty() && !s.text.isEmpty() && s.show, qPrintable(s.id));
        QVERIFY2(!s.text.contains(QLatin1Char('&')), qPrintable(s.text)); // menu names without mnemonics
    }

    const auto dock = [&w](const char *name) { return w.findChild<QDockWidget *>(QString::fromLatin1(name)); };
    const auto page = [tabs](MainWindow::View v) { return tabs->widget(static_cast<int>(v)); };
    // Each tab step shows its tab (starting from another) and outlines it or a part of it.
    const QList<std::pair<QString, MainWindow::View>> tabSteps{
        {"designer", MainWindow::View::Design}, {"curves", MainWindow::View::Curves},
        {"groups", MainWindow::View::Groups},   {"rollouts", MainWindow::View::Rollouts},
        {"failures", MainWindow::View::Failures}, {"judge", MainWindow::View::Judge}};
    for (const auto &[id, view] : tabSteps) {
        w.showView(view == MainWindow::View::Judge ? MainWindow::View::Design : MainWindow::View::Judge);
        panel->setCurrentIndex(static_cast<int>(ids.indexOf(id)));
        QCOMPARE(panel->currentId(), id);
        QTest::mouseClick(panel->showMeButton(), Qt::LeftButton);
        QCOMPARE(w.currentView(), view);
        QVERIFY2(highlightedWithin(page(view)), qPrintable(id));
    }
    // The curves' metric picker is shown even where its button was off, and outlined.
    auto *metrics = w.curves()->findChild<QPushButton *>(QStringLiteral("curvesMetricsButton"));
    auto *picker = w.curves()->findChild<QWidget *>(QStringLiteral("curvesMetricPicker"));
    QVERIFY(metrics && picker);
    metrics->setChecked(false);
    QVERIFY(!picker->isVisible());
    panel->setCurrentIndex(static_cast<int>(ids.indexOf("curves")));
    panel->showMe();
    QVERIFY(picker->isVisible());
    QCOMPARE(highlightsOn(picker).size(), 1);
    // The rollouts' Re-score button is outlined.
    panel->setCurrentIndex(static_cast<int>(ids.indexOf("rollouts")));
    panel->showMe();
    auto *rescore = w.rollouts()->findChild<rwb::widgets::RescoreButton *>();
    QVERIFY(rescore);
    QCOMPARE(highlightsOn(rescore).size(), 1);

    // Each dock step brings its dock to the front (tabified docks: it becomes the current
    // tab; a closed one opens again) and outlines it.
    for (const auto &[id, name] : QList<std::pair<QString, const char *>>{{"designer", "rewardComponentsDock"},
                                                                           {"training", "trainingDock"},
                                                                           {"tokens", "tokensDock"},
                                                                           {"runs", "runsDock"}}) {
        QDockWidget *d = dock(name);
        QVERIFY(d);
        d->close();
        QVERIFY(!d->isVisible());
        panel->setCurrentIndex(static_cast<int>(ids.indexOf(id)));
        panel->showMe();
        QCoreApplication::processEvents();
        QVERIFY2(d->isVisible() && !d->visibleRegion().isEmpty(), name);
        QVERIFY2(!highlightsOn(d).isEmpty(), name);
    }

    // Each menu step opens the menu holding its entry, the entry highlighted.
    QVERIFY(w.findChild<QAction *>(QStringLiteral("helpUserGuide")));
    for (const QString &id : {QStringLiteral("trees"), QStringLiteral("annotator"), QStringLiteral("jobs"),
                              QStringLiteral("help")}) {
        panel->setCurrentIndex(static_cast<int>(ids.indexOf(id)));
        panel->showMe();
        QMenu *open = nullptr;
        for (QAction *top : w.menuBar()->actions())
            if (top->menu() && top->menu()->isVisible())
                open = top->menu();
        QVERIFY2(open, qPrintable(id));
        QVERIFY2(open->activeAction(), qPrintable(id));
        // The sentence names the menu and the entry as they read.
        const QString entry = open->activeAction()->text().remove(QLatin1Char('&')).remove(QChar(0x2026));
        QVERIFY2(panel->textLabel()->text().contains(entry) || id == "jobs", qPrintable(panel->textLabel()->text()));
        QVERIFY2(panel->textLabel()->text().contains(open->title().remove(QLatin1Char('&'))), qPrintable(id));
        if (id == "help")
            QCOMPARE(open->activeAction()->objectName(), QStringLiteral("helpUserGuide"));
        open->hide();
    }
    // The training step names the menu that holds Start.
    panel->setCurrentIndex(static_cast<int>(ids.indexOf("training")));
    QVERIFY(panel->textLabel()->text().contains(QStringLiteral("Training menu")));
}

void TestGuidedTour::windowTourFollowsTheLanguage()
{
    LanguageManager lang;
    lang.setChoice(QStringLiteral("en"));
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    TourPanel *panel = w.tour()->panel();
    w.tour()->action()->trigger();
    panel->setCurrentIndex(static_cast<int>(panel->steps().size()) - 1); // the user guide's step
    const QString english = panel->textLabel()->text();
    QVERIFY2(english.contains(QStringLiteral("Help ▸ User guide")), qPrintable(english));
    QVERIFY2(english.contains(QStringLiteral("Help ▸ Guided tour")), qPrintable(english));

    lang.setChoice(QStringLiteral("ja"));
    QCoreApplication::processEvents();
    QCOMPARE(panel->currentId(), QStringLiteral("help")); // the same step, translated
    const QString japanese = panel->textLabel()->text();
    QVERIFY2(japanese.contains(QString::fromUtf8("ヘルプ ▸ ユーザーガイド")), qPrintable(japanese));
    QVERIFY2(japanese.contains(QString::fromUtf8("ヘルプ ▸ ガイドツアー")), qPrintable(japanese));
    QCOMPARE(panel->titleLabel()->text(), QString::fromUtf8("ユーザーガイド"));
    QCOMPARE(w.tour()->action()->text(), QString::fromUtf8("ガイドツアー(&G)"));
    for (const TourStep &s : panel->steps())
        QVERIFY2(s.text != english && !s.text.contains(QStringLiteral(" the ")), qPrintable(s.text));
    lang.setChoice(QStringLiteral("en"));
    QCoreApplication::processEvents();
    QCOMPARE(panel->textLabel()->text(), english);
}

void TestGuidedTour::fitsALaptopScreenWithTheTour_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("ja") << QStringLiteral("ja");
}

void TestGuidedTour::fitsALaptopScreenWithTheTour()
{
    QFETCH(QString, language);
    LanguageManager lang;
    lang.setChoice(language);
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    TourPanel *panel = w.tour()->panel();
    QVERIFY(w.tour()->showAtStart());
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(panel->isVisible());
    // Every step's text, every view and dock in front: the window's minimum still fits.
    for (int step = 0; step < panel->count(); ++step) {
        panel->setCurrentIndex(step);
        for (const auto view : {MainWindow::View::Design, MainWindow::View::Curves, MainWindow::View::Groups,
                                MainWindow::View::Rollouts, MainWindow::View::Failures, MainWindow::View::Judge}) {
            if (step > 0 && view != MainWindow::View::Design)
                continue; // the views once; the steps' texts with one
            w.showView(view);
            for (QDockWidget *dock : w.findChildren<QDockWidget *>()) {
                dock->raise();
                QCoreApplication::processEvents();
                w.layout()->activate();
                const QString where = QStringLiteral("step %1, view %2, dock %3: window %4×%5, tour %6×%7")
                                          .arg(panel->currentId())
                                          .arg(static_cast<int>(view))
                                          .arg(dock->objectName())
                                          .arg(w.minimumSizeHint().width())
                                          .arg(w.minimumSizeHint().height())
                                          .arg(panel->minimumSizeHint().width())
                                          .arg(panel->minimumSizeHint().height());
                QVERIFY2(w.minimumSizeHint().width() <= kMaxWidth, qPrintable(where));
                QVERIFY2(w.minimumSizeHint().height() <= kMaxHeight, qPrintable(where));
                QVERIFY2(w.minimumSize().width() <= kMaxWidth, qPrintable(where));
                QVERIFY2(w.minimumSize().height() <= kMaxHeight, qPrintable(where));
            }
        }
    }
    // At that size the window takes it, every step's text shows whole and the tour
    // leaves the views most of the height.
    w.resize(kMaxWidth, kMaxHeight);
    QCoreApplication::processEvents();
    QCOMPARE(w.size(), QSize(kMaxWidth, kMaxHeight));
    auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("views"));
    for (int step = 0; step < panel->count(); ++step) {
        panel->setCurrentIndex(step);
        QCoreApplication::processEvents();
        w.centralWidget()->layout()->activate();
        QLabel *text = panel->textLabel();
        const QString where = QStringLiteral("step %1: text %2×%3, needs %4; tour %5 high, views %6")
                                  .arg(panel->currentId())
                                  .arg(text->width())
                                  .arg(text->height())
                                  .arg(text->heightForWidth(text->width()))
                                  .arg(panel->height())
                                  .arg(tabs->height());
        QVERIFY2(text->height() >= text->heightForWidth(text->width()), qPrintable(where));
        QVERIFY2(panel->titleLabel()->width() >= panel->titleLabel()->minimumSizeHint().width(), qPrintable(where));
        QVERIFY2(panel->height() <= 160, qPrintable(where));
        QVERIFY2(tabs->height() >= 2 * panel->height(), qPrintable(where));
    }
}

QTEST_MAIN(TestGuidedTour)
#include "tst_guidedtour.moc"
