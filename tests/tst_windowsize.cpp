// app/workbench: the main window on a laptop's screen. At 1280 × 800 (less a frame
// allowance: 1280 × 760 for the window) it fits for every tab, in English and Japanese,
// with the bundled samples and with a legal-QA run (ten weight rows and the judge's
// settings); and the docks' forms scroll instead of clipping: every field of the training
// setup and every weight of the Designer can be scrolled into view whole.
#include "languagemanager.h"
#include "mainwindow.h"
#include "rewarddesigner.h"
#include "runsetupform.h"
#include "store/runstore.h"

#include "judgestore.h"

#include <QAbstractButton>
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// A laptop's 1280 × 800 screen less a title bar, a panel or a dock of the desktop.
constexpr int kMaxWidth = 1280;
constexpr int kMaxHeight = 760;

// What each part of the window asks for at least, for a failure's message.
QString minimumSizes(MainWindow &w)
{
    QStringList parts;
    const auto size = [](const QSize &s) { return QStringLiteral("%1×%2").arg(s.width()).arg(s.height()); };
    parts << QStringLiteral("window %1").arg(size(w.minimumSizeHint()));
    parts << QStringLiteral("central %1").arg(size(w.centralWidget()->minimumSizeHint()));
    auto *tabs = w.findChild<QTabWidget *>(QStringLiteral("views"));
    for (int i = 0; tabs && i < tabs->count(); ++i)
        parts << QStringLiteral("tab %1 %2").arg(i).arg(size(tabs->widget(i)->minimumSizeHint()));
    for (QDockWidget *d : w.findChildren<QDockWidget *>())
        parts << QStringLiteral("%1 %2").arg(d->objectName(), size(d->minimumSizeHint()));
    return parts.join(QStringLiteral(", "));
}

// Whether `field` is shown whole in `scroll`'s viewport once scrolled to.
bool reachable(QScrollArea *scroll, QWidget *field, QString *why)
{
    // Scrolled as a user would, to the whole field (ensureWidgetVisible() goes only as far
    // as a line edit's cursor); twice: the first may show a scroll bar.
    for (int i = 0; i < 2; ++i) {
        const QRect inContent(field->mapTo(scroll->widget(), QPoint(0, 0)), field->size());
        for (auto [bar, from, length, room] :
             {std::tuple{scroll->horizontalScrollBar(), inContent.x(), inContent.width(), scroll->viewport()->width()},
              std::tuple{scroll->verticalScrollBar(), inContent.y(), inContent.height(), scroll->viewport()->height()}}) {
            if (from < bar->value())
                bar->setValue(from);
            else if (from + length > bar->value() + room)
                bar->setValue(from + length - room);
        }
        QCoreApplication::processEvents();
    }
    const QRect r(field->mapTo(scroll->viewport(), QPoint(0, 0)), field->size());
    if (!scroll->viewport()->rect().contains(r)) {
        *why = QStringLiteral("%1 at (%2,%3 %4×%5) outside the viewport %6×%7 (sideways scroll bar %8, down %9 of %10, content %11)")
                   .arg(field->objectName())
                   .arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height())
                   .arg(scroll->viewport()->width()).arg(scroll->viewport()->height())
                   .arg(scroll->horizontalScrollBar()->isVisible())
                   .arg(scroll->verticalScrollBar()->value()).arg(scroll->verticalScrollBar()->maximum())
                   .arg(scroll->widget()->height());
        return false;
    }
    if (field->width() < field->minimumSizeHint().width()) {
        *why = QStringLiteral("%1 squeezed to %2 px (it needs %3)")
                   .arg(field->objectName())
                   .arg(field->width())
                   .arg(field->minimumSizeHint().width());
        return false;
    }
    return true;
}

} // namespace

class TestWindowSize : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void fitsALaptopScreen_data();
    void fitsALaptopScreen();
    void setupFormScrollsInsteadOfClipping_data();
    void setupFormScrollsInsteadOfClipping();

private:
    QTemporaryDir m_dir;
    QString m_store;
    qint64 m_run = 0;
};

void TestWindowSize::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("RewardWorkbenchTest");
    QCoreApplication::setApplicationName("tst_windowsize");
    QSettings().clear();
    QVERIFY(m_dir.isValid());
    m_store = m_dir.filePath("judged.sqlite");
    rwb::store::RunStore s(m_store.toStdString());
    m_run = rwbtest::writeKnownJudgeRun(s, RWB_RESOURCES_DIR);
    QVERIFY(m_run > 0);
}

void TestWindowSize::fitsALaptopScreen_data()
{
    QTest::addColumn<QString>("language");
    QTest::addColumn<bool>("legal");
    for (const char *language : {"en", "ja"}) {
        QTest::addRow("%s, extraction samples", language) << QString::fromLatin1(language) << false;
        QTest::addRow("%s, legal-QA run", language) << QString::fromLatin1(language) << true;
    }
}

void TestWindowSize::fitsALaptopScreen()
{
    QFETCH(QString, language);
    QFETCH(bool, legal);
    LanguageManager lang;
    lang.setChoice(language);
    MainWindow w(&lang);
    if (legal) {
        w.openInitialFiles(QStringLiteral(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl"),
                           QStringLiteral(":/presets/legal_citation_semantic.json"));
        QString error;
        QVERIFY2(w.openRun(m_store, m_run, &error), qPrintable(error));
    } else {
        w.openInitialFiles({}, {});
    }
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (const auto view : {MainWindow::View::Design, MainWindow::View::Curves, MainWindow::View::Groups,
                            MainWindow::View::Rollouts, MainWindow::View::Failures, MainWindow::View::Judge}) {
        w.showView(view);
        for (QDockWidget *dock : w.findChildren<QDockWidget *>()) {
            dock->raise();
            QCoreApplication::processEvents();
            w.layout()->activate();
            const QString where = QStringLiteral("view %1, dock %2: %3")
                                      .arg(static_cast<int>(view))
                                      .arg(dock->objectName(), minimumSizes(w));
            QVERIFY2(w.minimumSizeHint().width() <= kMaxWidth, qPrintable(where));
            QVERIFY2(w.minimumSizeHint().height() <= kMaxHeight, qPrintable(where));
            QVERIFY2(w.minimumSize().width() <= kMaxWidth, qPrintable(where));
            QVERIFY2(w.minimumSize().height() <= kMaxHeight, qPrintable(where));
        }
    }
    // And the window takes that size.
    w.resize(kMaxWidth, kMaxHeight);
    QCoreApplication::processEvents();
    QCOMPARE(w.size(), QSize(kMaxWidth, kMaxHeight));
}

void TestWindowSize::setupFormScrollsInsteadOfClipping_data()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QStringLiteral("en");
    QTest::newRow("ja") << QStringLiteral("ja");
}

void TestWindowSize::setupFormScrollsInsteadOfClipping()
{
    QFETCH(QString, language);
    LanguageManager lang;
    lang.setChoice(language);
    MainWindow w(&lang);
    w.openInitialFiles(QStringLiteral(RWB_RESOURCES_DIR "/samples/legal_qa_samples.jsonl"),
                       QStringLiteral(":/presets/legal_citation_semantic.json"));
    w.resize(kMaxWidth, kMaxHeight);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));

    // The training setup: every field and its browse button, whole once scrolled to.
    auto *training = w.findChild<QDockWidget *>(QStringLiteral("trainingDock"));
    QVERIFY(training);
    training->raise();
    QCoreApplication::processEvents();
    auto *form = w.runForm();
    auto *formScroll = form->findChild<QScrollArea *>();
    QVERIFY(formScroll);
    QVERIFY2(formScroll->viewport()->height() >= 100, "the form's fields have no room");
    int fields = 0;
    for (QWidget *field : formScroll->widget()->findChildren<QWidget *>()) {
        if (!(qobject_cast<QLineEdit *>(field) || qobject_cast<QComboBox *>(field) ||
              qobject_cast<QAbstractButton *>(field)) ||
            !field->isVisibleTo(formScroll->widget()) || qobject_cast<QLineEdit *>(field->parentWidget()) ||
            qobject_cast<QComboBox *>(field->parentWidget()))
            continue;
        QString why;
        QVERIFY2(reachable(formScroll, field, &why), qPrintable(why));
        ++fields;
    }
    QVERIFY(fields >= 50);

    // The Designer's components: every weight's spin box and slider.
    auto *components = w.findChild<QDockWidget *>(QStringLiteral("rewardComponentsDock"));
    QVERIFY(components);
    components->raise();
    QCoreApplication::processEvents();
    auto *panel = qobject_cast<QScrollArea *>(w.designer()->componentsPanel());
    QVERIFY(panel);
    int weights = 0;
    for (QWidget *field : panel->widget()->findChildren<QWidget *>()) {
        if (!field->objectName().startsWith("weight_") && !field->objectName().startsWith("slider_"))
            continue;
        if (!field->isVisibleTo(panel->widget()))
            continue;
        QString why;
        QVERIFY2(reachable(panel, field, &why), qPrintable(why));
        ++weights;
    }
    QVERIFY(weights >= 2 * 8);
}

QTEST_MAIN(TestWindowSize)
#include "tst_windowsize.moc"
