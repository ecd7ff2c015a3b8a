// app/workbench: the main window, live language switching and the restored layout.
#include "languagemanager.h"
#include "mainwindow.h"
#include "helpactions.h"
#include "outputfolder.h"
#include "rewarddesigner.h"
#include "task/catalog.h"
#include "samplescoremodel.h"
#include "componentweightseditor.h"
#include "curvepanel.h"
#include "failureexplorer.h"
#include "groupadvantageview.h"
#include "tokenview.h"
#include "groupadvantagemodel.h"
#include "judgedecisionfilter.h"
#include "judgedecisionmodel.h"
#include "judgedecisionview.h"
#include "rolloutbrowser.h"
#include "rolloutdetailview.h"
#include "rollouttablemodel.h"
#include "runlistmodel.h"
#include "runsetupform.h"
#include "trainingcontroller.h"
#include "store/runstore.h"

#include "judgestore.h"
#include "tinygrpo.h"

#include <QJsonDocument>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include "curveqcp.h"
#include "testtime.h"

#include <QCheckBox>
#include <QDockWidget>
#include <QTableView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTextBrowser>
#include <QtTest>

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void opensBundledSamplesAndBestPreset();
    void switchesLanguageLive();
    void restoresLayoutAndFiles();
    void trainsFromTheGuiAndChangesWeights();
    void restoresWorkspaceAndRun();
    void resumesAStoppedRun();
    void startsFromTheFormWithTheDesignersWeights();
    void picksAFreshOutputFolder_data();
    void picksAFreshOutputFolder();
    void helpOpensTheGuide();
    void showsTheHackingAlert();
    void judgeTabFollowsTheRun();
    void judgeTabShowsTheDesignersCalls();
    void importsAnotherTrainersRollouts();
    void followsATwoProcessRun();

private:
    QTemporaryDir m_dir;
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("RewardWorkbenchTest");
    QCoreApplication::setApplicationName("tst_mainwindow");
    QSettings().clear();
}

void TestMainWindow::opensBundledSamplesAndBestPreset()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    QCOMPARE(w.designer()->model()->rowCount(), 210);
    QCOMPARE(w.designer()->configPath(), QString(":/presets/table2_star_partial20_marker80.json"));
    // A missing file on the command line falls back, without crashing.
    MainWindow w2(&lang);
    QTimer::singleShot(0, [] {
        for (QWidget *top : QApplication::topLevelWidgets())
            if (top->inherits("QMessageBox"))
                QMetaObject::invokeMethod(top, "accept");
    });
}

void TestMainWindow::switchesLanguageLive()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    w.show();
    QCOMPARE(w.menuBar()->actions().first()->text(), QString("&File"));
    lang.setChoice("ja");
    QCOMPARE(lang.effectiveLanguage(), QString("ja"));
    QTRY_COMPARE(w.menuBar()->actions().first()->text(), QString::fromUtf8("ファイル(&F)"));
    auto *dock = w.findChild<QDockWidget *>("rewardComponentsDock");
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), QString::fromUtf8("報酬コンポーネント"));
    QCOMPARE(w.designer()->model()->headerData(SampleScoreModel::GoldColumn, Qt::Horizontal).toString(),
             QString::fromUtf8("正解"));
    QCOMPARE(QSettings().value("language").toString(), QString("ja"));
    // Every view follows, not only the menus and docks: the curves (titles, toolbar,
    // picker), the group view (controls and headers), the failure explorer's header and
    // the tokens dock.
    auto curveTitle = [&] { return qobject_cast<QCPTextElement *>(w.curves()->plot(0)->plotLayout()->element(0, 0))->text(); };
    auto groupHeader = [&] { return w.groups()->table()->model()->headerData(0, Qt::Horizontal).toString(); };
    auto failureHeader = [&] {
        return w.failures()->findChild<QTableView *>("failureCategories")->model()->headerData(0, Qt::Horizontal).toString();
    };
    auto tokensLabel = [&] {
        for (QLabel *l : w.tokens()->findChildren<QLabel *>())
            if (l->buddy())
                return l->text();
        return QString();
    };
    auto followText = [&] { return w.groups()->findChild<QCheckBox *>()->text(); };
    auto metricsButton = [&] { return w.curves()->findChild<QPushButton *>("curvesMetricsButton")->text(); };
    QCOMPARE(curveTitle(), QString::fromUtf8("報酬（平均 ± 標準偏差）"));
    QCOMPARE(w.curves()->plot(0)->xAxis->label(), QString::fromUtf8("ステップ"));
    QCOMPARE(metricsButton(), QString::fromUtf8("メトリクス"));
    QCOMPARE(groupHeader(), QString::fromUtf8("グループ"));
    QCOMPARE(followText(), QString::fromUtf8("最新を追う"));
    QCOMPARE(failureHeader(), QString::fromUtf8("分類"));
    QCOMPARE(tokensLabel(), QString::fromUtf8("色分け"));
    lang.setChoice("en");
    QTRY_COMPARE(w.menuBar()->actions().first()->text(), QString("&File"));
    QCOMPARE(dock->windowTitle(), QString("Reward components"));
    QCOMPARE(curveTitle(), QString("Reward (mean ± std)"));
    QCOMPARE(w.curves()->plot(0)->xAxis->label(), QString("step"));
    QCOMPARE(metricsButton(), QString("Metrics"));
    QCOMPARE(groupHeader(), QString("Group"));
    QCOMPARE(followText(), QString("Follow latest"));
    QCOMPARE(failureHeader(), QString("Category"));
    QCOMPARE(tokensLabel(), QString("Colour by"));
}

void TestMainWindow::restoresLayoutAndFiles()
{
    LanguageManager lang;
    lang.setChoice("en");
    {
        MainWindow w(&lang);
        w.openInitialFiles({}, ":/presets/table1_partial50_exist50.json");
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.findChild<QDockWidget *>("logDock")->hide();
        w.close();
    }
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.findChild<QDockWidget *>("logDock")->isHidden());
    QCOMPARE(w.designer()->configPath(), QString(":/presets/table1_partial50_exist50.json"));
}

// A tiny GRPO run driven through the main window: every view receives its steps, and
// a weight change made in the Designer (confirmed) reaches the engine at the next step.
void TestMainWindow::trainsFromTheGuiAndChangesWeights()
{
    QVERIFY(m_dir.isValid());
    QVERIFY(rwbtest::makeTinyGrpoWorkspace(m_dir.path(), 40, 4, 5));
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "gui", 4, 3);
    c.evalData = (m_dir.path() + "/val.jsonl").toStdString();
    c.evalEvery = 2;
    c.checkpointEvery = 2;

    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    w.show();
    QStringList asked;
    w.setConfirmationHandler([&](const QString &, const QString &text) {
        asked << text;
        return true;
    });
    auto *controller = w.controller();
    QSignalSpy finished(controller, &rwb::widgets::TrainingController::finished);
    QSignalSpy applied(controller, &rwb::widgets::TrainingController::weightsApplied);
    const QStringList names = w.designer()->model()->componentNames();
    connect(controller, &rwb::widgets::TrainingController::stepFinished, this, [&](const rwb::widgets::TrainingStep &s) {
        if (s.step == 1) { // the user drags marker to 50 and applies it to the run
            w.designer()->weightsEditor()->editWeight(names.indexOf("marker"), 50);
            w.designer()->requestApplyToRun();
        }
    });
    QString error;
    QVERIFY2(w.startTraining(c, &error), qPrintable(error));
    QVERIFY(!w.startTraining(c, &error)); // one run at a time
    QVERIFY(w.designer()->runningConfig().has_value());
    QVERIFY(finished.wait(rwbtest::scaledMs(240000)));
    QCOMPARE(finished.first().at(0).toString(), QString("finished"));
    QVERIFY(!w.designer()->runningConfig().has_value());

    // The confirmation named the change; the engine applied it at the next step boundary.
    QCOMPARE(asked.size(), 1);
    QVERIFY2(asked.first().contains(QString::fromUtf8("marker 80 → 50")), qPrintable(asked.first()));
    QCOMPARE(applied.count(), 1);
    const qint64 at = applied.first().at(0).toLongLong();
    QVERIFY2(at == 2 || at == 3, qPrintable(QString::number(at)));
    rwb::store::RunStore store(c.store, rwb::store::RunStore::OpenMode::ReadOnly);
    const qint64 runId = controller->runId();
    const auto versions = store.rewardConfigs(runId);
    QCOMPARE(versions.size(), size_t(2));
    QCOMPARE(versions[1].step, at);
    for (const auto &r : store.stepRollouts(runId, 4)) {
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(r.rollout.rewardsJson)).object();
        QVERIFY(std::abs(r.rollout.reward - (20 * o["partial"].toDouble() + 50 * o["marker"].toDouble()) / 70) < 1e-12);
    }

    // The views received the run: the curves hold steps 1–4 of the reward, the group view
    // followed to step 4 (2 groups of 4), the browser lists all 4 × 2 × 4 rollouts.
    QCOMPARE(w.runId(), runId);
    QCOMPARE(w.storePath(), QString::fromStdString(c.store));
    // (the plots redraw on a timer, at most 25 times a second)
    QCustomPlot *reward = w.curves()->plot(0);
    QVERIFY(reward);
    const auto rewardPoints = [reward] {
        int n = 0;
        for (int g = 0; g < reward->graphCount(); ++g)
            n = std::max(n, reward->graph(g)->dataCount());
        return n;
    };
    QTRY_COMPARE(rewardPoints(), 4);
    QCOMPARE(w.groups()->step(), qint64(4));
    QCOMPARE(w.groups()->model()->rowCount(), 2);
    QTRY_COMPARE(w.rollouts()->model()->rowCount(), 32);
    QSettings().setValue("test/store", QString::fromStdString(c.store));
    QSettings().setValue("test/run", runId);
    w.close();
}

// The workspace and the run shown come back at the next start.
void TestMainWindow::restoresWorkspaceAndRun()
{
    QVERIFY(m_dir.isValid());
    const QString wsDir = m_dir.path() + "/ws";
    LanguageManager lang;
    lang.setChoice("en");
    const QString store = QSettings().value("test/store").toString();
    const qint64 run = QSettings().value("test/run").toLongLong();
    QVERIFY(!store.isEmpty() && run > 0);
    {
        MainWindow w(&lang);
        QString error;
        QVERIFY2(w.createWorkspace(wsDir, &error), qPrintable(error));
        QVERIFY2(w.openRun(store, run, &error), qPrintable(error));
        w.showView(MainWindow::View::Rollouts);
        w.show();
        w.close();
    }
    MainWindow w(&lang);
    w.restoreWorkspace();
    QVERIFY(w.workspace().has_value());
    QCOMPARE(QDir(w.workspace()->dir()).canonicalPath(), QDir(wsDir).canonicalPath());
    QCOMPARE(w.storePath(), store);
    QCOMPARE(w.runId(), run);
    QCOMPARE(w.currentView(), MainWindow::View::Rollouts);
    QVERIFY(w.windowTitle().contains("ws"));
    // A workspace that has gone is reported, not fatal.
    QSettings().setValue("workspace", m_dir.path() + "/gone");
    MainWindow w2(&lang);
    w2.restoreWorkspace();
    QVERIFY(!w2.workspace().has_value());
}

// A run stopped after step 2 (with its checkpoint) is resumed from the window: the same
// run goes on to step 4, and the views show all of it. Its reward config was given as a
// value, as a run started from the window's form is: the run stored it inline and resumes
// from that, with no file; the Designer shows it and keeps the file it had.
void TestMainWindow::resumesAStoppedRun()
{
    QVERIFY(m_dir.isValid());
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "resume", 4, 7);
    c.checkpointEvery = 1;
    c.reward = rwb::train::rewardConfigOf(c, rwb::task::Catalog::builtin().rewards());
    c.rewardConfig.clear();
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    auto *controller = w.controller();
    QSignalSpy finished(controller, &rwb::widgets::TrainingController::finished);
    auto stopAt2 = connect(controller, &rwb::widgets::TrainingController::stepFinished, this,
                           [&](const rwb::widgets::TrainingStep &s) {
                               if (s.step == 2)
                                   controller->stop();
                           });
    QString error;
    QVERIFY2(w.startTraining(c, &error), qPrintable(error));
    QVERIFY(finished.wait(rwbtest::scaledMs(240000)));
    QCOMPARE(finished.last().at(0).toString(), QString("stopped"));
    disconnect(stopAt2);
    const qint64 runId = controller->runId();
    qint64 lastStep = 0;
    {
        rwb::store::RunStore store(c.store, rwb::store::RunStore::OpenMode::ReadOnly);
        lastStep = store.run(runId).lastStep;
        QVERIFY2(lastStep >= 2 && lastStep < 4, qPrintable(QString::number(lastStep)));
    }
    // A run that is not GRPO or has no checkpoint is refused with the reason.
    QVERIFY(!w.resumeRun(QString::fromStdString(c.store), 99, &error));
    QVERIFY2(error.contains("99"), qPrintable(error));

    const QString designerFile = w.designer()->configPath();
    QVERIFY2(w.resumeRun(QString::fromStdString(c.store), runId, &error), qPrintable(error));
    QCOMPARE(w.designer()->configPath(), designerFile);
    QCOMPARE(w.designer()->currentConfig().components.size(), c.reward->components.size());
    QVERIFY(finished.wait(rwbtest::scaledMs(240000)));
    QCOMPARE(finished.last().at(0).toString(), QString("finished"));
    QCOMPARE(controller->runId(), runId);
    rwb::store::RunStore store(c.store, rwb::store::RunStore::OpenMode::ReadOnly);
    const auto info = store.run(runId);
    QCOMPARE(QString::fromStdString(info.status), QString("finished"));
    QCOMPARE(info.lastStep, qint64(4));
    QCOMPARE(store.runs().size(), size_t(1));
    QCOMPARE(w.runId(), runId);
    QTRY_COMPARE(w.rollouts()->model()->rowCount(), 4 * 2 * 4);
    QCOMPARE(w.groups()->step(), qint64(4));
}

// Training ▸ Start takes the training setup form and the Designer's weights: the trainer
// gets the Designer's reward config as a value (no file) and the run uses it.
void TestMainWindow::startsFromTheFormWithTheDesignersWeights()
{
    QVERIFY(m_dir.isValid());
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    w.openInitialFiles({}, ":/presets/table1_partial50_marker50.json");
    QString error;
    const QString ws = m_dir.path() + "/form-ws";
    QVERIFY2(w.createWorkspace(ws, &error), qPrintable(error));
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "unused", 2, 11);
    c.store = (ws + "/runs.sqlite").toStdString();
    c.output = (ws + "/out").toStdString();
    c.runName = "from-form";
    // The output folder holds an earlier run's final adapter: this run writes beside it.
    QVERIFY(QDir().mkpath(ws + "/out/final"));
    QFile earlier(ws + "/out/final/adapter.safetensors");
    QVERIFY(earlier.open(QIODevice::WriteOnly) && earlier.write("earlier") == 7);
    earlier.close();
    w.runForm()->setConfig(c);
    QStringList problems;
    QVERIFY2(w.runForm()->validate(&problems), qPrintable(problems.join('\n')));

    QSignalSpy finished(w.controller(), &rwb::widgets::TrainingController::finished);
    QAction *start = w.findChild<QAction *>("startTraining");
    QVERIFY(start && start->isEnabled());
    start->trigger();
    QVERIFY(w.controller()->isActive());
    QVERIFY(!start->isEnabled()); // one run at a time
    QVERIFY(finished.wait(rwbtest::scaledMs(240000)));
    QCOMPARE(finished.last().at(0).toString(), QString("finished"));

    // The Designer's weights (partial 50 + marker 50) went to the run as a value: no file
    // was written, and the run's stored config holds them inline.
    QVERIFY(QDir(ws + "/configs").entryList(QDir::Files).isEmpty());
    rwb::store::RunStore store(c.store, rwb::store::RunStore::OpenMode::ReadOnly);
    const auto runs = store.runs();
    QCOMPARE(runs.size(), size_t(1));
    QCOMPARE(QString::fromStdString(runs[0].name), QString("from-form"));
    const QJsonObject stored = QJsonDocument::fromJson(QByteArray::fromStdString(runs[0].configJson)).object();
    const QJsonArray components = stored["reward_config"].toObject()["components"].toArray();
    QCOMPARE(components.size(), 2);
    QCOMPARE(components[0].toObject()["weight"].toDouble(), 50.0);
    QCOMPARE(components[1].toObject()["weight"].toDouble(), 50.0);
    // Its checkpoints and final adapter went to a fresh folder; the earlier run's are untouched.
    QCOMPARE(stored["output"].toString(), ws + "/out-2");
    QVERIFY(QFileInfo(ws + "/out-2/final").isDir());
    QCOMPARE(QDir(ws + "/out").entryList(QDir::AllEntries | QDir::NoDotAndDotDot), QStringList{"final"});
    QCOMPARE(QDir(ws + "/out/final").entryList(QDir::Files), QStringList{"adapter.safetensors"});
    for (const auto &r : store.stepRollouts(runs[0].id, 2)) {
        const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(r.rollout.rewardsJson)).object();
        QVERIFY(std::abs(r.rollout.reward - 0.5 * (o["partial"].toDouble() + o["marker"].toDouble())) < 1e-12);
    }
    QVERIFY(start->isEnabled());
}

void TestMainWindow::picksAFreshOutputFolder_data()
{
    QTest::addColumn<QStringList>("existing"); // folders made first ("name/" = holds a file)
    QTest::addColumn<QString>("expected");
    QTest::newRow("missing") << QStringList{} << "out";
    QTest::newRow("empty") << QStringList{"out"} << "out";
    QTest::newRow("holds a run") << QStringList{"out/"} << "out-2";
    QTest::newRow("-2 empty") << QStringList{"out/", "out-2"} << "out-2";
    QTest::newRow("-2 holds a run") << QStringList{"out/", "out-2/"} << "out-3";
    QTest::newRow("a file named out") << QStringList{"out!"} << "out-2";
}

void TestMainWindow::picksAFreshOutputFolder()
{
    QFETCH(QStringList, existing);
    QFETCH(QString, expected);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    for (QString name : existing) {
        if (name.endsWith('!')) { // a plain file
            QFile f(dir.filePath(name.chopped(1)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            continue;
        }
        const bool holds = name.endsWith('/');
        if (holds)
            name.chop(1);
        QVERIFY(QDir(dir.path()).mkpath(name + (holds ? "/final" : "")));
    }
    QCOMPARE(rwb::widgets::freshOutputFolder(dir.filePath("out")), dir.filePath(expected));
}

// Help ▸ User guide and CLI reference show docs/guide.md and docs/cli.md (found above the
// test program, in the checkout), as Markdown; the search-trees window without a source
// says how to get one.
void TestMainWindow::helpOpensTheGuide()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QMenu *help = w.menuBar()->actions().last()->menu();
    QVERIFY(help);
    QCOMPARE(help->title(), QString("&Help"));
    auto *guide = w.findChild<QAction *>("helpUserGuide");
    auto *cli = w.findChild<QAction *>("helpCliReference");
    QVERIFY(guide && cli);
    QVERIFY(help->actions().contains(guide) && help->actions().contains(cli));
    QCOMPARE(QDir(HelpActions::docsDir()), QDir(RWB_SOURCE_DIR "/docs"));
    guide->trigger();
    auto *browser = w.findChild<QTextBrowser *>("helpBrowser");
    QVERIFY(browser);
    QVERIFY(browser->isVisible());
    QVERIFY2(browser->toPlainText().startsWith("User guide: the workbench"), qPrintable(browser->toPlainText().left(80)));
    QVERIFY(browser->toPlainText().contains("output folder of its own"));
    cli->trigger();
    QVERIFY(browser->toPlainText().startsWith("rwb command-line reference"));
    // A page that is not there: the message names where it looked.
    HelpActions other(&w);
    QString error;
    QVERIFY(!other.openPage("no-such-page.md", &error));
    QVERIFY2(error.contains("no-such-page.md") && error.contains("docs"), qPrintable(error));

    // The search-trees window, made on demand, with no source.
    for (QAction *a : w.findChildren<QAction *>())
        if (a->text() == "Search &trees")
            a->trigger();
    auto *question = w.findChild<QLabel *>("mctsQuestion");
    QVERIFY(question);
    QVERIFY2(question->text().contains("rwb mcts run"), qPrintable(question->text()));

    // RWB_HELP_SHOTS=DIR: the window with its Help menu open, en and ja
    // (docs/images/help-menu-{en,ja}.png), and the guide's window (help-guide-en.png).
    const QString shots = qEnvironmentVariable("RWB_HELP_SHOTS");
    if (shots.isEmpty())
        return;
    w.openInitialFiles({}, {}); // the bundled samples in the Designer, behind the menu
    browser->close();
    if (QWidget *trees = w.findChild<QWidget *>("mctsViewer"))
        trees->close();
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    for (const char *language : {"en", "ja"}) {
        lang.setChoice(language);
        QTest::qWait(100);
        QAction *menuAction = w.menuBar()->actions().last();
        help->popup(w.menuBar()->mapToGlobal(w.menuBar()->actionGeometry(menuAction).bottomLeft()));
        QTest::qWait(200);
        QPixmap image = w.grab();
        {
            QPainter painter(&image);
            painter.drawPixmap(w.mapFromGlobal(help->pos()), help->grab());
        }
        help->hide();
        QVERIFY(image.save(shots + "/help-menu-" + language + ".png"));
    }
    lang.setChoice("en");
    guide->trigger();
    QTest::qWait(200);
    QVERIFY(browser->grab().save(shots + "/help-guide-en.png"));
}

// A stored run whose exist reward rises 0.40 → 0.60 over steps 1–20 while F1 falls
// 0.22 → 0.17 (tst_hackingmonitor works it out): the status bar links to the alert, the
// banner's Show rollouts opens the rollouts, and thresholds from the settings apply.
void TestMainWindow::showsTheHackingAlert()
{
    QVERIFY(m_dir.isValid());
    const QString store = m_dir.path() + "/hacked.sqlite";
    int64_t run = 0;
    {
        rwb::store::RunStore w(store.toStdString());
        run = w.beginRun("hacked", rwb::store::RunKind::Grpo, "{}", "company_extraction");
        w.writeStep(run, 0, {{"eval/f1", 0.22}}, {});
        for (int s = 1; s <= 20; ++s) {
            std::vector<rwb::store::Metric> m = {{"rewards/exist/mean", s <= 10 ? 0.40 : 0.60}};
            if (s == 20)
                m.push_back({"eval/f1", 0.17});
            w.writeStep(run, s, m, {});
        }
    }
    LanguageManager lang;
    lang.setChoice("en");
    QSettings().remove("hackingAlert");
    {
        MainWindow w(&lang);
        QString error;
        QVERIFY2(w.openRun(store, run, &error), qPrintable(error));
        auto *status = w.findChild<QLabel *>("alertStatus");
        QVERIFY(status && !status->isHidden());
        QVERIFY(status->text().contains("Reward-hacking alert"));
        QVERIFY2(status->toolTip().contains("exist rose 0.40 → 0.60 while validation F1 fell 0.22 → 0.17 (steps 1–20)"),
                 qPrintable(status->toolTip()));
        w.showView(MainWindow::View::Design);
        Q_EMIT status->linkActivated("curves");
        QCOMPARE(w.currentView(), MainWindow::View::Curves);
        auto *showRollouts = w.curves()->findChild<QPushButton *>("alertShowRollouts");
        QVERIFY(showRollouts);
        showRollouts->click();
        QCOMPARE(w.currentView(), MainWindow::View::Rollouts);
        // No evaluated checkpoints with predictions: the comparison says so and stays put.
        w.showView(MainWindow::View::Curves);
        w.curves()->findChild<QPushButton *>("alertCompareCheckpoints")->click();
        QCOMPARE(w.currentView(), MainWindow::View::Curves);
    }
    // Thresholds are read from the settings at start: a rise of 0.20 is below 0.25.
    QSettings().setValue("hackingAlert/riseThreshold", 0.25);
    {
        MainWindow w(&lang);
        QCOMPARE(w.curves()->alertSettings().riseThreshold, 0.25);
        QString error;
        QVERIFY2(w.openRun(store, run, &error), qPrintable(error));
        QVERIFY(w.curves()->alerts().empty());
        QVERIFY(w.findChild<QLabel *>("alertStatus")->isHidden());
    }
    QSettings().remove("hackingAlert");
}

// The Judge tab shows the run's judge calls; a rollout's "judge calls" link opens them
// there, filtered to it, and a call's "open in the rollout browser" goes back.
namespace {
// A store at `path` with the hand-worked judge run of judgestore.h; its id.
qint64 knownJudgeStore(const QString &path)
{
    rwb::store::RunStore s(path.toStdString());
    return rwbtest::writeKnownJudgeRun(s, RWB_RESOURCES_DIR);
}
} // namespace

void TestMainWindow::judgeTabFollowsTheRun()
{
    QVERIFY(m_dir.isValid());
    const QString store = m_dir.path() + "/judged.sqlite";
    const qint64 run = knownJudgeStore(store);
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    auto *tabs = w.findChild<QTabWidget *>("views");
    QVERIFY(tabs);
    QCOMPARE(tabs->count(), 6);
    QCOMPARE(tabs->tabText(5), QString("Judge"));
    QSignalSpy loaded(w.judge()->model(), &rwb::widgets::JudgeDecisionModel::loadingFinished);
    QString error;
    QVERIFY2(w.openRun(store, run, &error), qPrintable(error));
    QVERIFY(loaded.wait(rwbtest::scaledMs(20000)));
    QCOMPARE(w.judge()->model()->rowCount(), 21);
    // Rollout 1 in the browser, then its "judge calls" link.
    w.rollouts()->selectRollout(1);
    QVERIFY(w.rollouts()->detail()->plainText().contains("Judge calls (5)"));
    Q_EMIT w.rollouts()->detail()->browser()->anchorClicked(QUrl("#judge"));
    QCOMPARE(w.currentView(), MainWindow::View::Judge);
    QCOMPARE(w.judge()->filter()->rowCount(), 5);
    QCOMPARE(w.judge()->currentDecisionId(), qint64(1));
    // A call of rollout 2, back to the browser.
    w.judge()->showRollout(2);
    Q_EMIT w.judge()->rolloutRequested(2);
    QCOMPARE(w.currentView(), MainWindow::View::Rollouts);
    QCOMPARE(w.rollouts()->currentRolloutId(), qint64(2));
}

void TestMainWindow::judgeTabShowsTheDesignersCalls()
{
    // The Designer's "Judge calls" opens its log store's run in the judge view only (the
    // run shown elsewhere stays), and a re-score's new calls are read while it shows them.
    QVERIFY(m_dir.isValid());
    const QString store = m_dir.path() + "/designer-calls.sqlite";
    const qint64 run = knownJudgeStore(store);
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QSignalSpy loaded(w.judge()->model(), &rwb::widgets::JudgeDecisionModel::loadingFinished);
    Q_EMIT w.designer()->judgeCallsRequested(store, run);
    QCOMPARE(w.currentView(), MainWindow::View::Judge);
    QCOMPARE(w.judge()->storePath(), store);
    QCOMPARE(w.judge()->runId(), run);
    QCOMPARE(w.runId(), qint64(0));
    QVERIFY(loaded.wait(rwbtest::scaledMs(20000)));
    QCOMPARE(w.judge()->model()->rowCount(), 21);
    // A re-score writes one more call (an evaluation prediction's) and says so: read.
    {
        rwb::store::RunStore s(store.toStdString());
        rwb::store::EvalPrediction p;
        p.exampleId = "q01-c1";
        rwb::judge::Decision d;
        d.reward = "coverage";
        d.request = "{}";
        d.value = 1.0;
        p.judgeDecisions.push_back(d);
        s.writeEvalPredictions(run, 7, {p});
    }
    QSignalSpy more(w.judge()->model(), &rwb::widgets::JudgeDecisionModel::loadingFinished);
    Q_EMIT w.designer()->judgeCallsLogged(store, run);
    QVERIFY(more.wait(rwbtest::scaledMs(20000)));
    QCOMPARE(w.judge()->model()->rowCount(), 22);
    // A store that is not there: a message, the view as it was.
    Q_EMIT w.designer()->judgeCallsRequested(m_dir.path() + "/none.sqlite", 1);
    QCOMPARE(w.judge()->storePath(), store);
}

void TestMainWindow::importsAnotherTrainersRollouts()
{
    // File → Import rollouts' work: verl's dump folder (tests/data/import/verl, two steps of
    // two groups of two) becomes a run of the store, opened in every view; a dump with a
    // bad line imports nothing and says where.
    QVERIFY(m_dir.isValid());
    const QString store = m_dir.path() + "/imported.sqlite";
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    const qint64 run = w.importRollouts(QStringLiteral(RWB_TEST_DATA "/import/verl"), store, &error);
    QVERIFY2(run > 0, qPrintable(error));
    QCOMPARE(w.runId(), run);
    QCOMPARE(w.storePath(), store);
    QTRY_COMPARE(w.rollouts()->model()->rowCount(), 8);
    {
        const rwb::store::RunStore st(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
        QCOMPARE(st.run(run).kind, std::string("external"));
    }

    const QString bad = m_dir.path() + "/bad-dump";
    QVERIFY(QDir().mkpath(bad));
    QFile f(bad + "/3.jsonl");
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"input\": \"q\", \"output\": \"a\", \"score\": 1}\n{\"input\": \"q\", \"output\": 2, \"score\": 1}\n");
    f.close();
    QCOMPARE(w.importRollouts(bad, store, &error), qint64(0));
    QVERIFY2(error.contains("3.jsonl:2: field \"output\" must be a string or a list of messages, not number"), qPrintable(error));
    const rwb::store::RunStore st(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
    QCOMPARE(st.runs().size(), size_t(1));
    QCOMPARE(w.runId(), run);
}

void TestMainWindow::followsATwoProcessRun()
{
    // `rwb grpo --nproc 2` trains in two other processes; the window opens its run while
    // it is written and follows it as it would its own: the curves grow step by step,
    // the browser takes the new rollouts, the run list shows it finished.
    QVERIFY(m_dir.isValid());
    QVERIFY(QFileInfo::exists(m_dir.path() + "/tiny/config.json")); // trainsFromTheGuiAndChangesWeights' workspace
    rwb::train::GrpoConfig c = rwbtest::tinyGrpoConfig(m_dir.path(), "dist", 12, 7);
    c.maxNewTokens = 16;
    c.precision = "fp32";
    const QString configPath = m_dir.path() + "/dist.json";
    {
        QFile f(configPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray::fromStdString(rwb::train::toJson(c)));
    }
    QProcess training;
    training.start(RWB_BINARY, {"grpo", "--config", configPath, "--quiet", "--nproc", "2"});
    QVERIFY(training.waitForStarted());
    const QString store = QString::fromStdString(c.store);
    // Step 1 is in the store: the run is open and being written.
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            try {
                const rwb::store::RunStore st(store.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
                return !st.runs().empty() && st.run(1).lastStep >= 1;
            } catch (const std::exception &) {
                return false;
            }
        }(),
        rwbtest::scaledMs(120000));

    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    QString error;
    QVERIFY2(w.openRun(store, 1, &error), qPrintable(error));
    QCustomPlot *reward = w.curves()->plot(0);
    const auto rewardPoints = [reward] {
        int n = 0;
        for (int g = 0; g < reward->graphCount(); ++g)
            n = std::max(n, reward->graph(g)->dataCount());
        return n;
    };
    const int atOpen = rewardPoints();
    qInfo("steps on the curves when the window opened the run: %d of 12", atOpen);
    QVERIFY2(w.isFollowingStoredRun() || training.state() == QProcess::NotRunning, "the run ended before the window opened it");
    QVERIFY(training.waitForFinished(rwbtest::scaledMs(240000)));
    QCOMPARE(training.exitCode(), 0);
    // The follower reads the end within a second or two.
    QTRY_VERIFY_WITH_TIMEOUT(!w.isFollowingStoredRun(), rwbtest::scaledMs(10000));
    QTRY_COMPARE(rewardPoints(), 12);
    QVERIFY2(atOpen < 12, qPrintable(QString::number(atOpen)));
    QCOMPARE(w.groups()->step(), qint64(12));
    QTRY_COMPARE(w.rollouts()->model()->rowCount(), 12 * 2 * 4);
    QCOMPARE(w.runList()->run(w.runList()->rowOfRun(1))->status, std::string("finished"));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
