// widgets/RolloutBrowser, RolloutDetailView and RolloutCondition on a run store written
// here with known values: the component-condition parser (valid forms and messages),
// a "marker < 0.5" filter counted by hand, ← / → (slots, buttons and keys) walking the
// filtered rows, selectRollout() fetching a later page, the detail pane's answer-gold
// marks, stored values, weights and core's explanations, tag marks in a thinking-format
// completion, a bad search that leaves the table as it was, and a search across the
// store's runs (Run column, a rollout of another run, bounded). The table model runs
// under QAbstractItemModelTester throughout.
//
// With RWB_BROWSER_DEMO=<store> (and optionally RWB_BROWSER_SHOT=<png>), demoScreenshot
// also grabs the browser on run 1 of that store; otherwise it is skipped.
#include "reward/compositereward.h"
#include "runsessions.h"
#include "task/catalog.h"
#include "tasks/extraction/extraction.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "rescorebutton.h"
#include "rewardtext.h"
#include "rolloutbrowser.h"
#include "rolloutcondition.h"
#include "rolloutdetailview.h"
#include "rollouttablemodel.h"
#include "store/runstore.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTranslator>
#include <QtTest>

using namespace rwb;
using rwb::widgets::RolloutBrowser;
using rwb::widgets::RolloutCondition;
using rwb::widgets::RolloutDetailView;
using rwb::widgets::RolloutTableModel;
using Op = rwb::store::ComponentCondition::Op;

namespace {

constexpr int kPerStep = 16; // two groups of eight
constexpr int kSteps = 10;   // 160 rollouts, ids 1 … 160 in a fresh file
constexpr int kTotal = kPerStep * kSteps;
// Rollout 3 (id 4; step 1, group 0, sample 3): answer 株式会社ミハル包装 for gold ミハル包装.
constexpr int kSpecial = 3;
const char *const kConfig = R"({"components": [{"reward": "partial", "weight": 20}, {"reward": "marker", "weight": 80}]})";

// Rollout i: partial (i % 10) / 10, marker (i % 7) / 6 (so marker < 0.5 ⇔ i % 7 ≤ 2),
// advantage (i % 5) − 2, truncated when i % 11 == 0; rollout kSpecial is the
// ミハル包装 case with the values core gives it: partial 2·5/(9+5), marker 1.
store::Rollout makeRollout(int i)
{
    store::Rollout r;
    r.groupIndex = (i % kPerStep) / 8;
    r.sampleIndex = i % 8;
    r.promptId = "p" + std::to_string(r.groupIndex);
    double partial = (i % 10) / 10.0, marker = (i % 7) / 6.0;
    r.completion = (i % 3 == 0 ? "株式会社サンプル" : "不明") + std::string(" #") + std::to_string(i);
    if (i == kSpecial) {
        r.completion = "株式会社ミハル包装";
        partial = 10.0 / 14.0;
        marker = 1.0;
    }
    r.answer = r.completion;
    r.reward = 0.2 * partial + 0.8 * marker;
    r.rewardsJson = "{\"partial\":" + std::to_string(partial) + ",\"marker\":" + std::to_string(marker) + "}";
    r.advantage = (i % 5) - 2.0;
    r.tokenIds = {1, 2, 3};
    r.logprobsOld = {-0.5f, -1.0f, -1.5f}; // mean −1
    r.logprobsNew = {-0.25f, -0.5f, -0.75f}; // mean −0.5
    r.completionTokens = 3;
    r.truncated = i % 11 == 0;
    return r;
}

std::vector<store::Prompt> prompts()
{
    return {{"p0", "差出人: info@miharu.co.jp\n株式会社ミハル包装の山田です。", "ミハル包装",
             R"({"sender_email": "info@miharu.co.jp", "email_text": "株式会社ミハル包装の山田です。"})"},
            {"p1", "差出人: sato@sample.jp\nサンプル商事の佐藤です。", "サンプル商事",
             R"({"sender_email": "sato@sample.jp", "email_text": "サンプル商事の佐藤です。"})"}};
}

// Writes the run (and a second, thinking-format run with one rollout); returns the first run's id.
int64_t writeStore(const QString &path, int64_t *thinkingRun = nullptr)
{
    store::RunStore s(path.toStdString());
    const int64_t run = s.beginRun("known", store::RunKind::Grpo, "{}", "company_extraction");
    s.recordRewardConfig(run, 1, kConfig);
    for (int step = 1; step <= kSteps; ++step) {
        std::vector<store::Rollout> rows;
        for (int k = 0; k < kPerStep; ++k)
            rows.push_back(makeRollout((step - 1) * kPerStep + k));
        s.writeStep(run, step, {{"reward", 0.5}}, rows, prompts());
    }
    const int64_t t = s.beginRun("thinking", store::RunKind::Grpo, "{}", "company_extraction");
    s.recordRewardConfig(t, 1, R"({"thinking": true, "components": [{"reward": "format", "weight": 1}, {"reward": "partial", "weight": 1}]})");
    store::Rollout r = makeRollout(0);
    r.completion = "<thinking>署名を見る</thinking>\n<answer>株式会社ミハル包装</answer>";
    r.answer = "株式会社ミハル包装";
    r.rewardsJson = R"({"format": 1, "partial": 0.714286})";
    s.writeStep(t, 1, {}, {r}, prompts());
    if (thinkingRun)
        *thinkingRun = t;
    return run;
}

QString describe(const std::vector<store::ComponentCondition> &cs)
{
    static const char *const ops[] = {"<", "<=", ">", ">=", "==", "!="};
    QStringList out;
    for (const auto &c : cs)
        out << QString("%1 %2 %3").arg(QString::fromStdString(c.component), ops[static_cast<int>(c.op)]).arg(c.value);
    return out.join(" & ");
}

// The ids of the rollouts with marker < 0.5, in order (ids are i + 1 in a fresh file).
QList<qint64> lowMarkerIds()
{
    QList<qint64> ids;
    for (int i = 0; i < kTotal; ++i)
        if (i != kSpecial && i % 7 <= 2)
            ids << i + 1;
    return ids;
}

// The background colour of the text fragment `text` in the document, or an invalid colour.
QList<QColor> backgroundsOf(const QTextDocument *doc, const QString &text)
{
    QList<QColor> out;
    for (QTextBlock b = doc->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it)
            if (it.fragment().text() == text)
                out << it.fragment().charFormat().background().color();
    return out;
}

} // namespace

class TestRolloutBrowser : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void init();
    void conditionParser_data();
    void conditionParser();
    void markerFilterCountsByHand();
    void nextAndPreviousWalkTheFilteredRows();
    void selectRolloutFetchesLaterPages();
    void detailPaneMarksAnswerAndGold();
    void detailPaneMarksTags();
    void importedRunWithoutTask();
    void answerBlock();
    void badSearchLeavesTheTable();
    void searchAcrossRuns();
    void openRunErrors();
    void refreshAppendsLiveRows();
    void demoScreenshot();

private:
    QTemporaryDir m_dir;
    QString m_path;
    int64_t m_run = 0;
    int64_t m_thinkingRun = 0;
};

void TestRolloutBrowser::init()
{
    if (m_path.isEmpty()) {
        m_path = m_dir.path() + "/runs.sqlite";
        m_run = writeStore(m_path, &m_thinkingRun);
    }
}

void TestRolloutBrowser::conditionParser_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("expected"); // describe() of the conditions, or "" for none
    QTest::addColumn<QString>("error");    // the message, or "" when valid
    QTest::newRow("one") << "marker < 0.5" << "marker < 0.5" << "";
    QTest::newRow("no spaces, and") << "partial>=0.8 and format == 1" << "partial >= 0.8 & format == 1" << "";
    QTest::newRow("AND, &&, comma") << "partial<=1 AND marker!=0 && format=1, marker > -0.25"
                                    << "partial <= 1 & marker != 0 & format == 1 & marker > -0.25" << "";
    QTest::newRow("empty") << "   " << "" << "";
    QTest::newRow("unknown component") << "markr < 0.5" << ""
                                       << "unknown component 'markr' (known: partial, marker, format)";
    QTest::newRow("second unknown") << "marker < 0.5 and domain > 0" << ""
                                    << "unknown component 'domain' (known: partial, marker, format)";
    QTest::newRow("not a number") << "marker < abc" << "" << "\"abc\" is not a number (in \"marker < abc\")";
    QTest::newRow("no number") << "marker <" << "" << "a number is missing after \"marker <\"";
    QTest::newRow("bad operator") << "marker =< 1" << ""
                                  << "unknown operator \"=<\" in \"marker =< 1\" (use <, <=, >, >=, == or !=)";
    QTest::newRow("no operator") << "marker" << "" << "\"marker\" is not a comparison like \"marker < 0.5\"";
    QTest::newRow("empty part") << "marker < 1,, partial > 0" << ""
                                << "an empty condition in \"marker < 1,, partial > 0\"";
}

void TestRolloutBrowser::conditionParser()
{
    QFETCH(QString, text);
    QFETCH(QString, expected);
    QFETCH(QString, error);
    QString message;
    const auto parsed = RolloutCondition::parse(text, {"partial", "marker", "format"}, &message);
    if (error.isEmpty()) {
        QVERIFY2(parsed.has_value(), qPrintable(message));
        QCOMPARE(describe(*parsed), expected);
    } else {
        QVERIFY(!parsed.has_value());
        QCOMPARE(message, error);
    }
}

void TestRolloutBrowser::markerFilterCountsByHand()
{
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    b.model()->setPageSize(1000);
    QString error;
    QVERIFY2(rwbtest::showRun(b, m_path, m_run, &error), qPrintable(error));
    QCOMPARE(b.model()->rowCount(), kTotal);
    QCOMPARE(b.countLabel()->text(), QString("160 rollouts shown"));
    // marker < 0.5 ⇔ i % 7 ∈ {0, 1, 2} for i in 0 … 159: 23 each of 0, 1, 2 (i ≤ 154, 155, 156) = 69.
    b.conditionEdit()->setText("marker < 0.5");
    QTest::keyClick(b.conditionEdit(), Qt::Key_Return);
    QCOMPARE(b.model()->rowCount(), 69);
    QCOMPARE(lowMarkerIds().size(), 69);
    QCOMPARE(b.countLabel()->text(), QString("69 rollouts shown"));
    QVERIFY(b.errorLabel()->isHidden());
    // A bad condition: a red message, the table as it was.
    b.conditionEdit()->setText("markr < 0.5");
    QVERIFY(!b.applyFilter());
    QVERIFY(!b.errorLabel()->isHidden());
    QCOMPARE(b.errorLabel()->text(), QString("Components: unknown component 'markr' (known: partial, marker)"));
    QCOMPARE(b.model()->rowCount(), 69);
    // Typing applies after a short pause, without Enter.
    b.conditionEdit()->clear();
    QVERIFY(b.applyFilter());
    QCOMPARE(b.model()->rowCount(), kTotal);
    QTest::keyClicks(b.conditionEdit(), "marker < 0.5");
    QTRY_COMPARE(b.model()->rowCount(), 69);
    // With steps 3 … 5 as well: i in 32 … 79 with i % 7 ≤ 2 → 35,36,37,42,43,44,49,50,51,56,57,58,63,64,65,70,71,72,77,78,79 = 21.
    b.conditionEdit()->setText("marker<0.5");
    b.findChildren<QSpinBox *>().at(0)->setValue(3);
    b.findChildren<QSpinBox *>().at(1)->setValue(5);
    QVERIFY(b.applyFilter());
    QCOMPARE(b.model()->rowCount(), 21);
}

void TestRolloutBrowser::nextAndPreviousWalkTheFilteredRows()
{
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    b.model()->setPageSize(20);
    QVERIFY(rwbtest::showRun(b, m_path, m_run));
    b.resize(1000, 600);
    b.show();
    QVERIFY(QTest::qWaitForWindowExposed(&b));
    b.conditionEdit()->setText("marker < 0.5");
    QVERIFY(b.applyFilter());
    const QList<qint64> ids = lowMarkerIds(); // 1, 2, 3, 8, 9, 10, 15, …
    QCOMPARE(ids.mid(0, 6), QList<qint64>({1, 2, 3, 8, 9, 10}));
    QSignalSpy spy(&b, &RolloutBrowser::rolloutSelected);

    b.previous(); // nothing selected, nothing before
    QCOMPARE(spy.count(), 0);
    b.next();
    b.next();
    b.next();
    b.next();
    QCOMPARE(spy.count(), 4);
    for (int k = 0; k < 4; ++k)
        QCOMPARE(spy.at(k).at(0).toLongLong(), ids[k]);
    QCOMPARE(b.currentRolloutId(), qint64(8));
    QCOMPARE(b.table()->currentIndex().row(), 3);
    QCOMPARE(b.detail()->rolloutId(), qint64(8));
    b.previous();
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(3));
    // Keys on the table do the same.
    b.table()->setFocus();
    QTest::keyClick(b.table(), Qt::Key_Right);
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(8));
    QTest::keyClick(b.table(), Qt::Key_Right);
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(9));
    QTest::keyClick(b.table(), Qt::Key_Left);
    QTest::keyClick(b.table(), Qt::Key_Left);
    QTest::keyClick(b.table(), Qt::Key_Left);
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(2));
    // The buttons too.
    b.findChild<QPushButton *>("nextRollout")->click();
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(3));
    b.findChild<QPushButton *>("previousRollout")->click();
    b.findChild<QPushButton *>("previousRollout")->click();
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(1));
    const int before = spy.count();
    b.previous(); // at the first row: stays
    QTest::keyClick(b.table(), Qt::Key_Left);
    QCOMPARE(spy.count(), before);
    QCOMPARE(b.currentRolloutId(), qint64(1));

    // Walking on past the first page (20 rows) fetches the next one; at the end it stops.
    for (int k = 1; k < ids.size(); ++k)
        b.next();
    QCOMPARE(spy.count(), before + ids.size() - 1);
    QCOMPARE(b.currentRolloutId(), ids.last());
    QCOMPARE(b.model()->rowCount(), ids.size());
    b.next();
    QTest::keyClick(b.table(), Qt::Key_Right);
    QCOMPARE(spy.count(), before + ids.size() - 1);
    QCOMPARE(b.currentRolloutId(), ids.last());
    QCOMPARE(b.table()->currentIndex().row(), ids.size() - 1);
}

void TestRolloutBrowser::selectRolloutFetchesLaterPages()
{
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    b.model()->setPageSize(20);
    QVERIFY(rwbtest::showRun(b, m_path, m_run));
    QCOMPARE(b.model()->rowCount(), 20);
    QCOMPARE(b.countLabel()->text(), QString("20 rollouts shown <a href=\"#more\">more…</a>"));
    Q_EMIT b.countLabel()->linkActivated("#more"); // the "more…" link fetches a page
    QCOMPARE(b.model()->rowCount(), 40);
    QSignalSpy spy(&b, &RolloutBrowser::rolloutSelected);
    b.selectRollout(150);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toLongLong(), qint64(150));
    QCOMPARE(b.model()->rowCount(), 160); // pages of 20 until id 150 is in: 8 pages
    QCOMPARE(b.table()->currentIndex().row(), 149);
    QCOMPARE(b.currentRolloutId(), qint64(150));
    QCOMPARE(b.detail()->rolloutId(), qint64(150));

    // Under marker < 0.5 (pages of 20 of the 69 rows): id 120 (i = 119, 119 % 7 = 0) is row 51.
    b.conditionEdit()->setText("marker < 0.5");
    QVERIFY(b.applyFilter());
    QCOMPARE(b.model()->rowCount(), 20);
    b.selectRollout(120);
    QCOMPARE(b.model()->rowCount(), 60);
    QCOMPARE(b.table()->currentIndex().row(), lowMarkerIds().indexOf(120));
    QCOMPARE(b.table()->currentIndex().row(), 51);
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(120));
    // A rollout the filter hides (id 4: marker 1) is shown, with no row selected.
    b.selectRollout(4);
    QCOMPARE(b.currentRolloutId(), qint64(4));
    QCOMPARE(b.detail()->rolloutId(), qint64(4));
    QVERIFY(!b.table()->currentIndex().isValid());
    QCOMPARE(spy.last().at(0).toLongLong(), qint64(4));
}

void TestRolloutBrowser::detailPaneMarksAnswerAndGold()
{
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(rwbtest::showRun(b, m_path, m_run));
    b.selectRollout(kSpecial + 1);
    QCOMPARE(b.table()->currentIndex().row(), kSpecial);
    const RolloutDetailView *d = b.detail();
    const QString html = d->sourceHtml();
    // Answer 株式会社ミハル包装 against gold ミハル包装: ミハル包装 common (green) in both,
    // 株式会社 extra in the answer (red), nothing missing from the gold.
    QVERIFY2(html.contains("<tt><span style=\"background:#f7b8b8\">株式会社</span><span style=\"background:#bfe8c0\">ミハル包装</span></tt>"),
             qPrintable(html));
    QVERIFY(html.contains("<tt><span style=\"background:#bfe8c0\">ミハル包装</span></tt>"));
    QVERIFY(!html.contains("background:#ffd59a\">ミ")); // nothing of the gold marked missing
    // … and the rendered document carries those colours.
    QCOMPARE(backgroundsOf(d->browser()->document(), "株式会社").value(0), QColor("#f7b8b8"));
    QVERIFY(backgroundsOf(d->browser()->document(), "ミハル包装").contains(QColor("#bfe8c0")));

    // Components as stored (partial 10/14 → "0.714", marker 1) with weights 20 and 80,
    // and the contributions 20·0.714/100 = 0.143, 80·1/100 = 0.800.
    QCOMPARE(d->content().components.size(), size_t(2));
    QCOMPARE(d->content().components[0].name, QString("partial"));
    QCOMPARE(d->content().components[0].storedValue, std::stod(std::to_string(10.0 / 14.0)));
    QCOMPARE(d->content().components[0].weight, 20.0);
    QCOMPARE(d->content().components[1].storedValue, 1.0);
    QCOMPARE(d->content().components[1].weight, 80.0);
    QVERIFY(html.contains("<td><b>partial</b></td><td align=right>0.714</td><td align=right>20</td><td align=right>0.143</td>"));
    QVERIFY(html.contains("<td><b>marker</b></td><td align=right>1.000</td><td align=right>80</td><td align=right>0.800</td>"));
    // The total is the stored reward: 0.2·10/14 + 0.8 = 0.943.
    QVERIFY(html.contains("<td align=right><b>0.943</b></td>"));

    // Explanations: by hand (LCS 5 of 9 and 5 characters; 5 and 5 without 株式会社) and as core gives them.
    const QString text = d->plainText();
    const QString partialWhy = "Common substring of 5 characters; answer 9, gold 5 characters: 2·5 / (9 + 5) = 0.714.";
    const QString markerWhy = "Common substring of 5 characters; answer 5, gold 5 characters: 2·5 / (5 + 5) = 1.000.";
    QVERIFY2(text.contains(partialWhy), qPrintable(text));
    QVERIFY(text.contains(markerWhy));
    reward::CompositeReward composite(reward::parseRewardConfig(kConfig, "test", task::Catalog::builtin().rewards()), "test", task::Catalog::builtin().rewards());
    const reward::ExtractionPrompt prompt("info@miharu.co.jp", "株式会社ミハル包装の山田です。", "ミハル包装");
    const auto core = composite.explain(prompt, reward::ExtractionAnswer("株式会社ミハル包装", false));
    QCOMPARE(RewardText::explanation(core[0]), partialWhy);
    QCOMPARE(RewardText::explanation(core[1]), markerWhy);
    QVERIFY(!text.contains("explained now as")); // stored and recomputed agree
    // Header: run, step 1, group 0, sample 3; advantage (3 % 5) − 2 = 1 in green.
    QVERIFY(text.contains("Run known (#1) · step 1 · group 0 · sample 3"));
    QVERIFY(html.contains("<span style=\"color:#1a7f37\">1.000</span>"));
    // The normalized forms equal the raw ones here, so no second row.
    QVERIFY(!text.contains("Normalized answer"));
    // The token arrays as read by RunStore::rollout(): means −1 and −0.5, no reference.
    QVERIFY(text.contains("sampling -1.000 · updated -0.500 · reference — (3 token ids)"));
    // Without markers: 株式会社 removed from the answer.
    QVERIFY(text.contains("Markers removed (answer / gold)"));

    // A rollout whose stored values differ from what core computes says so (i = 0: partial 0, marker 0
    // stored; 株式会社サンプル #0 against ミハル包装 gives 0 and 0 too, so pick i = 1: partial 0.1 stored).
    b.selectRollout(2);
    QVERIFY(b.detail()->plainText().contains("(explained now as 0.000; the run stored 0.100)"));
    // Negative advantage (1 % 5 − 2 = −1) in red.
    QVERIFY(b.detail()->sourceHtml().contains("<span style=\"color:#c62828\">-1.000</span>"));
}

void TestRolloutBrowser::detailPaneMarksTags()
{
    RolloutBrowser b;
    QVERIFY(rwbtest::showRun(b, m_path, m_thinkingRun));
    QCOMPARE(b.model()->rowCount(), 1);
    b.next();
    const QString html = b.detail()->sourceHtml();
    // The four tags of core's thinking format in purple bold, the answer block on blue.
    for (const char *tag : {"&lt;thinking&gt;", "&lt;/thinking&gt;", "&lt;answer&gt;", "&lt;/answer&gt;"})
        QVERIFY2(html.contains(QString("<b><span style=\"color:#7a3db8\">%1</span></b>").arg(tag)), tag);
    QVERIFY(html.contains("<span style=\"background:#dde9ff\">株式会社ミハル包装</span>"));
    // format 1 as stored, explained by core.
    QVERIFY(b.detail()->plainText().contains("The completion is <thinking>…</thinking> followed by <answer>…</answer>: 1."));
}

// core's answerBlock(), which the completion marks use: byte ranges counted by hand.
// A run imported from another trainer without --task (an invoice extraction logged by
// NeMo-RL, say) was parsed by the default task, company extraction: the pane showed a
// failure category ("Invented (not in the input)"), an answer-against-gold table with no
// gold and "no reward config" in red, all about a task the run never had. It is now shown
// as the trainer logged it: the reward, the components stored, the completion and prompt.
void TestRolloutBrowser::importedRunWithoutTask()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("imported.sqlite"));
    int64_t run = 0;
    {
        store::RunStore s(path.toStdString());
        run = s.beginRun("nemo-rl", store::RunKind::External, "{}", "");
        store::Rollout r = makeRollout(1);
        r.completion = R"({"vendor": "Northfield Hardware Inc", "total": "599.16"})";
        r.answer.clear();
        r.rewardsJson = R"({"vendor_right": 0.0})";
        r.reward = 0.749;
        r.promptId = "q1";
        store::Prompt p{"q1", "Extract the vendor and the total as JSON.", "", "{}"};
        s.writeStep(run, 80, {}, {r}, {p});
    }
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(rwbtest::showRun(b, path, run));
    b.selectRollout(1);
    const QString text = b.detail()->plainText();
    QVERIFY2(text.contains("Run nemo-rl (#1) · step 80 · group 0 · sample 1"), qPrintable(text));
    QVERIFY(text.contains("Northfield Hardware Inc"));
    QVERIFY(text.contains("vendor_right"));
    QVERIFY2(!text.contains("Failure category"), qPrintable(text));
    QVERIFY(!text.contains("Answer against gold"));
    QVERIFY(!text.contains("recorded no reward config"));
    QVERIFY(!text.contains("recorded input"));
}

void TestRolloutBrowser::answerBlock()
{
    using reward::answerBlock;
    const std::string plain = " 株式会社A ";
    QVERIFY(answerBlock(plain, false).found);
    QCOMPARE(answerBlock(plain, false).begin, size_t(0));
    QCOMPARE(answerBlock(plain, false).length, plain.size());
    // "<thinking>x</thinking><answer>" is 10 + 1 + 11 + 8 = 30 bytes; " A社 " is 1 + 1 + 3 + 1 = 6.
    const std::string t = "<thinking>x</thinking><answer> A社 </answer>";
    QVERIFY(answerBlock(t, true).found);
    QCOMPARE(answerBlock(t, true).begin, size_t(30));
    QCOMPARE(answerBlock(t, true).length, size_t(6));
    QCOMPARE(reward::extractAnswer(t, true), std::string("A社"));
    QVERIFY(!answerBlock("<thinking>x</thinking><answer>A", true).found);
    QVERIFY(!answerBlock("A</answer>", true).found);
    QCOMPARE(reward::extractAnswer("<answer>A", true), std::string());
}

void TestRolloutBrowser::badSearchLeavesTheTable()
{
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    b.model()->setPageSize(1000);
    QVERIFY(rwbtest::showRun(b, m_path, m_run));
    // 株式会社 ⇔ i % 3 == 0 (54 of 0 … 159), plus the special rollout 3 (already i % 3 == 0): 54.
    b.searchEdit()->setText("株式会社");
    QVERIFY(b.applyFilter());
    QCOMPARE(b.model()->rowCount(), 54);
    b.searchEdit()->setText("\"unterminated");
    QTest::keyClick(b.searchEdit(), Qt::Key_Return);
    QCOMPARE(b.model()->rowCount(), 54);
    QCOMPARE(b.countLabel()->text(), QString("54 rollouts shown"));
    QVERIFY(!b.errorLabel()->isHidden());
    QVERIFY2(b.errorLabel()->text().startsWith("Search: "), qPrintable(b.errorLabel()->text()));
    QVERIFY(b.errorLabel()->text().contains("unterminated string"));
    // A good query again clears the message: サンプル ⇔ i % 3 == 0 except the special rollout 3: 53.
    b.searchEdit()->setText("サンプル");
    QVERIFY(b.applyFilter());
    QCOMPARE(b.model()->rowCount(), 53);
    QVERIFY(b.errorLabel()->isHidden());
}

// The scope "all runs of the store": a search finds the rollouts of both runs, with a Run
// column; one of the other run shows in the detail pane, and activating it asks for its
// run; the search stays when that run opens; bounded, with "first N shown"; a re-score of
// the filtered rows stays within the run shown.
void TestRolloutBrowser::searchAcrossRuns()
{
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(rwbtest::showRun(b, m_path, m_run));
    QCOMPARE(b.scopeBox()->currentIndex(), int(RolloutBrowser::ThisRun));
    QVERIFY(b.table()->isColumnHidden(RolloutTableModel::RunColumn));
    // ミハル包装 in a completion: rollout 3 (id 4) here, and the thinking run's one (id 161).
    b.searchEdit()->setText("ミハル包装");
    QVERIFY(b.applyFilter());
    QCOMPARE(b.model()->rowCount(), 1);
    b.scopeBox()->setCurrentIndex(RolloutBrowser::AllRuns); // applies at once
    QCOMPARE(b.model()->rowCount(), 2);
    QVERIFY(!b.table()->isColumnHidden(RolloutTableModel::RunColumn));
    QCOMPARE(b.model()->headerData(RolloutTableModel::RunColumn, Qt::Horizontal).toString(), QString("Run"));
    QCOMPARE(b.model()->index(0, RolloutTableModel::RunColumn).data().toString(), QString::number(m_run));
    QCOMPARE(b.model()->index(1, RolloutTableModel::RunColumn).data().toString(), QString::number(m_thinkingRun));
    QCOMPARE(b.model()->rollout(1).id, qint64(kTotal + 1));
    QCOMPARE(b.countLabel()->text(), QString("2 rollouts of every run shown"));
    // The other run's rollout: its detail here; activated, a request for its run.
    QSignalSpy requested(&b, &RolloutBrowser::runRequested);
    b.table()->selectRow(1);
    QCOMPARE(b.currentRolloutId(), qint64(kTotal + 1));
    QVERIFY2(b.detail()->findChild<QTextBrowser *>() != nullptr, "no detail pane");
    QMetaObject::invokeMethod(b.table(), "activated", Q_ARG(QModelIndex, b.model()->index(1, 0)));
    QCOMPARE(requested.size(), 1);
    QCOMPARE(requested.at(0).at(0).toString(), m_path);
    QCOMPARE(requested.at(0).at(1).toLongLong(), qint64(m_thinkingRun));
    QCOMPARE(requested.at(0).at(2).toLongLong(), qint64(kTotal + 1));
    QMetaObject::invokeMethod(b.table(), "activated", Q_ARG(QModelIndex, b.model()->index(0, 0)));
    QCOMPARE(requested.size(), 1); // this run's own: nothing to switch
    // A re-score of the filtered rows: this run's part only.
    QSignalSpy rescore(&b, &RolloutBrowser::rescoreRequested);
    auto *button = b.findChild<widgets::RescoreButton *>();
    QVERIFY(button);
    Q_EMIT button->requested(widgets::RescoreButton::Filtered);
    QCOMPARE(rescore.size(), 1);
    const auto scope = rescore.at(0).at(0).value<train::RescoreScope>();
    QVERIFY(!scope.filter.allRuns);
    QCOMPARE(scope.filter.runId, m_run);
    QCOMPARE(rescore.at(0).at(1).toString(), QString("the filtered rollouts of this run"));
    // The other run opens (as the main window does on the request): the search stays.
    QVERIFY(rwbtest::showRun(b, m_path, m_thinkingRun));
    QCOMPARE(b.scopeBox()->currentIndex(), int(RolloutBrowser::AllRuns));
    QCOMPARE(b.searchEdit()->text(), QString("ミハル包装"));
    QCOMPARE(b.model()->rowCount(), 2);
    b.selectRollout(kTotal + 1);
    QCOMPARE(b.table()->currentIndex().row(), 1);
    // Bounded: at most the limit, and the count says more matched.
    b.setAllRunsLimit(30);
    b.searchEdit()->clear();
    QVERIFY(b.applyFilter());
    QCOMPARE(b.model()->rowCount(), 30);
    QVERIFY(b.model()->limitReached());
    QVERIFY(!b.model()->canFetchMore({}));
    QCOMPARE(b.countLabel()->text(), QString("first 30 rollouts shown (more match: narrow the filter)"));
    // Back to this run: no limit, no Run column.
    b.scopeBox()->setCurrentIndex(RolloutBrowser::ThisRun);
    QCOMPARE(b.model()->rowCount(), 1); // the thinking run's one rollout
    QVERIFY(!b.model()->limitReached());
    QVERIFY(b.table()->isColumnHidden(RolloutTableModel::RunColumn));
}

void TestRolloutBrowser::openRunErrors()
{
    RolloutBrowser b;
    QString error;
    QVERIFY(!rwbtest::showRun(b, m_path, 99, &error));
    QVERIFY2(error.contains("run 99") && error.contains(m_path), qPrintable(error));
    QVERIFY(!rwbtest::showRun(b, m_dir.path() + "/missing.sqlite", 1, &error));
    QVERIFY2(error.contains("missing.sqlite"), qPrintable(error));
    QVERIFY(rwbtest::showRun(b, m_path, m_run, &error));
    b.close();
    QCOMPARE(b.model()->rowCount(), 0);
    QCOMPARE(b.currentRolloutId(), qint64(0));
}

void TestRolloutBrowser::refreshAppendsLiveRows()
{
    QTemporaryDir dir;
    const QString path = dir.path() + "/live.sqlite";
    store::RunStore writer(path.toStdString());
    const int64_t run = writer.beginRun("live", store::RunKind::Grpo, "{}", "company_extraction");
    writer.recordRewardConfig(run, 1, kConfig);
    auto step = [&](int s) {
        std::vector<store::Rollout> rows;
        for (int k = 0; k < kPerStep; ++k)
            rows.push_back(makeRollout((s - 1) * kPerStep + k));
        writer.writeStep(run, s, {}, rows, prompts());
    };
    step(1);
    step(2);
    RolloutBrowser b;
    QAbstractItemModelTester tester(b.model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(rwbtest::showRun(b, path, run));
    QCOMPARE(b.model()->rowCount(), 32);
    b.next();
    QCOMPARE(b.currentRolloutId(), qint64(1));
    step(3); // the trainer goes on
    b.refresh();
    QCOMPARE(b.model()->rowCount(), 48);
    QCOMPARE(b.countLabel()->text(), QString("48 rollouts shown"));
    QCOMPARE(b.currentRolloutId(), qint64(1)); // the selection stays
    QCOMPARE(b.table()->currentIndex().row(), 0);
}

void TestRolloutBrowser::demoScreenshot()
{
    const QString demo = qEnvironmentVariable("RWB_BROWSER_DEMO");
    if (demo.isEmpty())
        QSKIP("RWB_BROWSER_DEMO names no store");
    QTranslator translator; // RWB_BROWSER_QM=<.qm>: the screenshot in that language
    if (!qEnvironmentVariable("RWB_BROWSER_QM").isEmpty()) {
        QVERIFY(translator.load(qEnvironmentVariable("RWB_BROWSER_QM")));
        QCoreApplication::installTranslator(&translator);
    }
    RolloutBrowser b;
    QString error;
    QVERIFY2(rwbtest::showRun(b, demo, 1, &error), qPrintable(error));
    b.resize(1500, 900);
    b.show();
    QVERIFY(QTest::qWaitForWindowExposed(&b));
    b.conditionEdit()->setText("marker < 0.5");
    QVERIFY(b.applyFilter());
    b.next();
    b.next();
    b.next();
    b.table()->setFocus(); // as after a click in the table (the current row stays)
    QTest::qWait(50);
    const QString shot = qEnvironmentVariable("RWB_BROWSER_SHOT", "/tmp/browser_demo.png");
    QVERIFY(b.grab().save(shot));
}

QTEST_MAIN(TestRolloutBrowser)
#include "tst_rolloutbrowser.moc"
