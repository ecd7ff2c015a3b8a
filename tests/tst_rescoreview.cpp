// widgets/RescoreView (what-if re-scoring, issue 43) opened from the rollout browser, offscreen:
// its "Re-score…" menu on a filter and on the current rollout's group gives the scope;
// the view re-scores it on its worker thread (progress, then finished), and its two models
// (under QAbstractItemModelTester) show the values tst_rescore works out by hand: group 0
// of step 1 changes its best completion and its sample 3 flips sign; the summary line
// carries the correlations. Cancel ends a re-score without a result; "Save as evaluation"
// adds an evaluation run to the store and leaves the run as it was.
#include "rescorebutton.h"
#include "rescoregroupmodel.h"
#include "rescorerunner.h"
#include "rescoretablemodel.h"
#include "rescoreview.h"
#include "rolloutbrowser.h"
#include "runsessions.h"

#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "store/runstore.h"
#include "task/catalog.h"

#include "rescorerun.h"

#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QAction>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTranslator>
#include <QtTest>

using namespace rwb;
using namespace rwbtest::rescorerun;
using rwb::widgets::RescoreButton;
using rwb::widgets::RescoreTableModel;
using rwb::widgets::RescoreView;
using rwb::widgets::RolloutBrowser;

namespace {

// The run of rescorerun.h (stored 0.2·partial + 0.8·marker), edited 0.8·partial + 0.2·marker.
const char *const kEditedConfig = R"({"name": "partial first", "task": "company_extraction", "components": [{"reward": "partial", "weight": 80}, {"reward": "marker", "weight": 20}]})";

int64_t writeRun(const QString &path)
{
    store::RunStore s(path.toStdString());
    const int64_t run = s.beginRun("known", store::RunKind::Grpo, R"({"scale_rewards": "group"})", "company_extraction");
    s.recordRewardConfig(run, 1, kStoredConfig);
    const std::vector<store::Prompt> prompts = rwbtest::rescorerun::prompts();
    std::vector<store::Rollout> rows;
    for (int g = 0; g < 2; ++g)
        for (int j = 0; j < 4; ++j) {
            const Row &k = kGroups[g][j];
            store::Rollout r;
            r.promptId = "p" + std::to_string(g);
            r.groupIndex = g;
            r.sampleIndex = j;
            r.completion = r.answer = k.answer;
            r.reward = 0.2 * k.partial + 0.8 * k.marker;
            r.rewardsJson = nlohmann::json{{"partial", k.partial}, {"marker", k.marker}}.dump();
            rows.push_back(r);
        }
    s.writeStep(run, 1, {{"reward", 0.5}}, rows, prompts);
    s.finishRun(run, store::RunStatus::Finished);
    return run;
}

reward::RewardConfig edited()
{
    return reward::parseRewardConfig(kEditedConfig, "edited", task::Catalog::builtin().rewards());
}

} // namespace

class TestRescoreView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fromBrowser();
    void groupScopeAndCancel();
    void scopesRun();
    void demoScreenshot();
};

void TestRescoreView::fromBrowser()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const int64_t run = writeRun(path);
    RolloutBrowser browser;
    browser.resize(1200, 700);
    browser.show();
    QString error;
    QVERIFY2(rwbtest::showRun(browser, path, run, &error), qPrintable(error));
    // A filter that keeps 包装 of group 0 only (partial 4/7): its whole group comes.
    browser.conditionEdit()->setText(QStringLiteral("partial > 0.5 and partial < 0.6"));
    QVERIFY(browser.applyFilter());
    auto *button = browser.findChild<RescoreButton *>(QStringLiteral("rescoreButton"));
    QVERIFY(button);
    QSignalSpy asked(&browser, &RolloutBrowser::rescoreRequested);
    button->action(RescoreButton::Filtered)->trigger();
    QCOMPARE(asked.count(), 1);
    const auto scope = asked.at(0).at(0).value<train::RescoreScope>();
    QCOMPARE(scope.filter.runId, run);
    QCOMPARE(scope.filter.components.size(), size_t(2));

    RescoreView view;
    view.resize(1100, 700);
    view.show();
    QAbstractItemModelTester rowsTester(view.rolloutModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QAbstractItemModelTester groupsTester(view.groupModel(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QSignalSpy finished(&view, &RescoreView::finished);
    QSignalSpy progress(view.runner(), &widgets::RescoreRunner::progress);
    // The browser's session's document, as the main window hands it on.
    auto document = widgets::StoreDocument::get(path);
    QVERIFY(view.start(document, scope, edited(), asked.at(0).at(1).toString()));
    QVERIFY(view.isRunning());
    QVERIFY(finished.wait(20000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QVERIFY(progress.count() >= 1);

    // Group 0 only (4 rows), 包装 (sample 3) the one asked for.
    const RescoreTableModel *m = view.rolloutModel();
    QCOMPARE(m->rowCount(), 4);
    QCOMPARE(view.groupModel()->rowCount(), 1);
    QCOMPARE(m->columnCount(), RescoreTableModel::FirstComponent + 2 * 2 + 1);
    QCOMPARE(m->headerData(RescoreTableModel::FirstComponent, Qt::Horizontal).toString(), QStringLiteral("partial (stored)"));
    // Sample 3: −0.068 → +0.034 (tst_rescore's hand values), flagged.
    QVERIFY(std::abs(m->index(3, RescoreTableModel::OldAdvantage).data(Qt::UserRole).toDouble() - -0.0678409996114459) < 1e-9);
    QVERIFY(std::abs(m->index(3, RescoreTableModel::NewAdvantage).data(Qt::UserRole).toDouble() - 0.0342029996031337) < 1e-9);
    QCOMPARE(m->index(3, RescoreTableModel::Flip).data().toString(), QStringLiteral("flips"));
    QCOMPARE(m->index(0, RescoreTableModel::Flip).data().toString(), QString());
    // Best: sample 0 before, sample 1 after.
    QCOMPARE(m->index(0, RescoreTableModel::Best).data().toString(), QStringLiteral("★ → "));
    QCOMPARE(m->index(1, RescoreTableModel::Best).data().toString(), QStringLiteral(" → ★"));
    QCOMPARE(view.groupModel()->index(0, widgets::RescoreGroupModel::NewBest).data().toString(), QStringLiteral("1 (changed)"));
    // New partial of sample 0: 5/7.
    QCOMPARE(m->index(0, RescoreTableModel::FirstComponent + 1).data().toString(), QStringLiteral("0.714"));
    // Over group 0 alone: r(old, new) of its four advantages, by hand from tst_rescore's:
    // old 0.79026 0.66558 −1.38799 −0.06784, new 0.54121 0.83898 −1.41439 0.03420 → r = 0.970;
    // ranks 4 3 1 2 against 3 4 1 2 → ρ = 0.8.
    const QString summary = view.summaryText();
    QVERIFY2(summary.contains(QStringLiteral("Spearman 0.800")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("The best completion changes in 1 of 1 group")), qPrintable(summary));
    QVERIFY2(summary.contains(QStringLiteral("1 advantage flips sign")) || summary.contains(QStringLiteral("1 advantage(s) flip sign")),
             qPrintable(summary));
    QVERIFY2(view.settingsText().contains(QStringLiteral("scale_rewards = group")), qPrintable(view.settingsText()));

    // Activating a row asks for its rollout (the browser shows it).
    QSignalSpy activated(&view, &RescoreView::rolloutActivated);
    Q_EMIT view.rolloutTable()->activated(m->index(2, 0));
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.at(0).at(0).toLongLong(), qint64(3));

    // Saving adds an evaluation run; the run stays as it was.
    QSignalSpy saved(&view, &RescoreView::saved);
    QVERIFY(view.saveAsEvaluation());
    QCOMPARE(saved.count(), 1);
    const store::RunStore s(path.toStdString(), store::RunStore::OpenMode::ReadOnly);
    const qint64 eval = saved.at(0).at(1).toLongLong();
    QCOMPARE(s.run(eval).kind, std::string("eval"));
    QCOMPARE(s.evalPredictions(eval).size(), size_t(4));
    QCOMPARE(s.run(run).steps, int64_t(1));
}

void TestRescoreView::groupScopeAndCancel()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    const int64_t run = writeRun(path);
    RolloutBrowser browser;
    QString error;
    QVERIFY2(rwbtest::showRun(browser, path, run, &error), qPrintable(error));
    auto *button = browser.findChild<RescoreButton *>(QStringLiteral("rescoreButton"));
    QSignalSpy asked(&browser, &RolloutBrowser::rescoreRequested);
    // No current rollout: nothing asked, a message instead.
    button->action(RescoreButton::Group)->trigger();
    QCOMPARE(asked.count(), 0);
    browser.selectRollout(6); // group 1, sample 1
    button->action(RescoreButton::Group)->trigger();
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked.at(0).at(1).toString(), QStringLiteral("step 1, group 1"));
    const auto scope = asked.at(0).at(0).value<train::RescoreScope>();
    QCOMPARE(scope.rolloutIds, std::vector<int64_t>{6});

    RescoreView view;
    QSignalSpy finished(&view, &RescoreView::finished);
    QVERIFY(view.start(widgets::StoreDocument::get(path), scope, edited(), QStringLiteral("step 1, group 1")));
    view.cancel(); // before the first batch has been scored, or after: either way it ends
    QVERIFY(finished.wait(20000));
    if (!finished.at(0).at(0).toBool()) {
        QCOMPARE(view.rolloutModel()->rowCount(), 0);
        QVERIFY(!view.saveAsEvaluation());
    } else {
        QCOMPARE(view.rolloutModel()->rowCount(), 4); // it had finished before the cancel came
    }
}

// Two runs in one store: the view re-scores the run the scope names (the browser's), run 2
// (rollouts 9 … 16), and its title says so.
void TestRescoreView::scopesRun()
{
    QTemporaryDir dir;
    const QString path = dir.filePath("runs.sqlite");
    writeRun(path);
    const int64_t second = writeRun(path);
    QCOMPARE(second, int64_t(2));
    train::RescoreScope scope;
    scope.filter.runId = second;
    scope.rolloutIds = {10}; // group 0 of run 2
    RescoreView view;
    QSignalSpy finished(&view, &RescoreView::finished);
    QVERIFY(view.start(widgets::StoreDocument::get(path), scope, edited(), QStringLiteral("step 1, group 0")));
    QVERIFY(finished.wait(20000));
    QVERIFY(finished.at(0).at(0).toBool());
    QCOMPARE(view.rolloutModel()->rowCount(), 4);
    for (int i = 0; i < 4; ++i)
        QCOMPARE(view.rolloutModel()->rolloutAt(i).rolloutId, int64_t(9 + i));
    QVERIFY(view.findChild<QLabel *>(QStringLiteral("rescoreTitle"))->text().startsWith(QStringLiteral("Run 2,")));
    // A scope without a run: refused, with the reason.
    RescoreView refused;
    QVERIFY(!refused.start(widgets::StoreDocument::get(path), train::RescoreScope{}, edited(), QStringLiteral("all")));
    QVERIFY2(refused.summaryText().contains(QStringLiteral("names no run")), qPrintable(refused.summaryText()));
}

// With RWB_RESCORE_DEMO=<store> and RWB_RESCORE_CONFIG=<reward config>, re-scores step
// RWB_RESCORE_STEP (1) of run 1 with that config, its component RWB_RESCORE_COMPONENT
// given weight 1 (the edit asked about), and grabs the view into RWB_RESCORE_SHOT (a PNG),
// in the language of RWB_RESCORE_QM (a .qm) when given; skipped otherwise. What
// docs/images/whatif-{en,ja}.png are made with (docs/guide.md, "What if").
void TestRescoreView::demoScreenshot()
{
    const QString storePath = qEnvironmentVariable("RWB_RESCORE_DEMO");
    const QString configPath = qEnvironmentVariable("RWB_RESCORE_CONFIG");
    if (storePath.isEmpty() || configPath.isEmpty())
        QSKIP("RWB_RESCORE_DEMO and RWB_RESCORE_CONFIG not set");
    QTranslator translator;
    if (!qEnvironmentVariable("RWB_RESCORE_QM").isEmpty()) {
        QVERIFY(translator.load(qEnvironmentVariable("RWB_RESCORE_QM")));
        QCoreApplication::installTranslator(&translator);
    }
    reward::RewardConfig config = reward::loadRewardConfig(configPath.toStdString(), task::Catalog::builtin().rewards());
    const std::string component = qEnvironmentVariable("RWB_RESCORE_COMPONENT").toStdString();
    for (reward::RewardComponent &c : config.components)
        if (c.label() == component)
            c.weight = 1.0;
    config.name += " (" + component + " 1)";
    const qint64 step = qEnvironmentVariableIsSet("RWB_RESCORE_STEP") ? qEnvironmentVariableIntValue("RWB_RESCORE_STEP") : 1;
    train::RescoreScope scope;
    scope.filter.runId = 1;
    scope.filter.stepMin = scope.filter.stepMax = step;
    RescoreView view;
    view.resize(1280, 800);
    view.show();
    QSignalSpy finished(&view, &RescoreView::finished);
    QVERIFY(view.start(widgets::StoreDocument::get(storePath), scope, config,
                       QCoreApplication::translate("rwb::widgets::RolloutBrowser", "step %1").arg(step)));
    QVERIFY(finished.wait(300000));
    QVERIFY2(finished.at(0).at(0).toBool(), qPrintable(view.summaryText()));
    // Scroll to the first group whose best completion changes, else the first flip.
    for (int g = 0; g < view.groupModel()->rowCount(); ++g)
        if (view.groupModel()->groupAt(g).bestChanged) {
            view.rolloutTable()->scrollTo(view.rolloutModel()->index(int(view.groupModel()->groupAt(g).firstRow), 0),
                                          QAbstractItemView::PositionAtTop);
            break;
        }
    QTest::qWait(200);
    qInfo("%s", qPrintable(view.summaryText()));
    if (!qEnvironmentVariable("RWB_RESCORE_SHOT").isEmpty())
        QVERIFY(view.grab().save(qEnvironmentVariable("RWB_RESCORE_SHOT")));
    QCoreApplication::removeTranslator(&translator);
}

QTEST_MAIN(TestRescoreView)
#include "tst_rescoreview.moc"
