// widgets: the rubric editor — RubricModel under QAbstractItemModelTester (edits, the
// pitfall convention, add / delete / move, verdicts and the explicit score worked out by
// hand) and RubricEditor (RaR and HealthBench files in and out, a malformed file named
// with its item and field and nothing lost, unsaved edits never dropped silently).
#include "rubriceditor.h"
#include "rubricmodel.h"

#include <nlohmann/json.hpp>

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace rwb;
using rwb::judge::RubricCategory;
using rwb::widgets::RubricEditor;
using rwb::widgets::RubricModel;
using json = nlohmann::json;

namespace {

constexpr double kTol = 1e-12;

// E4 "a", I2 "b", O1 "c", P−3 "d": Σw⁺ = 7.
judge::Rubric fourItems()
{
    return judge::parseRubricText(R"([
        {"title": "a", "description": "Essential Criteria: States a.", "weight": 4},
        {"title": "b", "description": "Important Criteria: States b.", "weight": 2},
        {"title": "c", "description": "Optional Criteria: States c.", "weight": 1},
        {"title": "d", "description": "Pitfall Criteria: States d.", "weight": -3}])",
                                  "four");
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    QFile f(dir.filePath(name));
    f.open(QIODevice::WriteOnly);
    f.write(bytes);
    return f.fileName();
}

QString criterion(const RubricModel &m, int row)
{
    return m.index(row, RubricModel::CriterionColumn).data().toString();
}

} // namespace

class TestRubricEditor : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void modelEditsAndPitfalls();
    void verdictsAndScore();
    void addDeleteMove();
    void filesInAndOut();
    void malformedFileKeepsEdits();
    void unsavedEditsAsk();
};

void TestRubricEditor::modelEditsAndPitfalls()
{
    RubricModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setRubric(fourItems());
    QCOMPARE(m.rowCount(), 4);
    QVERIFY(!m.isModified());
    QCOMPARE(m.index(0, RubricModel::CategoryColumn).data().toString(), QString("Essential"));
    QCOMPARE(m.index(3, RubricModel::WeightColumn).data(RubricModel::ValueRole).toDouble(), -3.0);
    QCOMPARE(criterion(m, 1), QString("States b."));
    // A negative weight makes an item a pitfall.
    QVERIFY(m.setData(m.index(1, RubricModel::WeightColumn), -2.0));
    QCOMPARE(m.rubric().items[1].category, RubricCategory::Pitfall);
    QVERIFY(m.isModified());
    // A pitfall keeps −|w| whatever sign is typed.
    QVERIFY(m.setData(m.index(1, RubricModel::WeightColumn), 5.0));
    QCOMPARE(m.rubric().items[1].weight, -5.0);
    // Out of Pitfall: |w|; into Pitfall: −|w|.
    QVERIFY(m.setData(m.index(1, RubricModel::CategoryColumn), int(RubricCategory::Important)));
    QCOMPARE(m.rubric().items[1].weight, 5.0);
    QVERIFY(m.setData(m.index(0, RubricModel::CategoryColumn), int(RubricCategory::Pitfall)));
    QCOMPARE(m.rubric().items[0].weight, -4.0);
    // 0, not a number, not finite: refused, the weight stays.
    QVERIFY(!m.setData(m.index(2, RubricModel::WeightColumn), 0.0));
    QVERIFY(!m.setData(m.index(2, RubricModel::WeightColumn), "high"));
    QVERIFY(!m.setData(m.index(2, RubricModel::WeightColumn), std::nan("")));
    QCOMPARE(m.rubric().items[2].weight, 1.0);
    // Text is trimmed; verdict and contribution are not editable.
    QVERIFY(m.setData(m.index(2, RubricModel::CriterionColumn), "  States c plainly. "));
    QCOMPARE(criterion(m, 2), QString("States c plainly."));
    QVERIFY(!(m.flags(m.index(0, RubricModel::VerdictColumn)) & Qt::ItemIsEditable));
    // Every item a pitfall: validateRubric's message, naming the rule.
    m.setRubric(fourItems());
    for (int r = 0; r < 3; ++r)
        QVERIFY(m.setData(m.index(r, RubricModel::CategoryColumn), int(RubricCategory::Pitfall)));
    QVERIFY2(m.problem().contains("all-zero"), qPrintable(m.problem()));
    // The edited rubric round-trips through the published form.
    m.setRubric(fourItems());
    QVERIFY(m.setData(m.index(0, RubricModel::TitleColumn), "deadline"));
    QVERIFY(m.problem().isEmpty());
    const judge::Rubric back = judge::parseRubric(judge::toRaR(m.rubric()), "back");
    QCOMPARE(back.items[0].title, std::string("deadline"));
    QCOMPARE(back.items[3].category, RubricCategory::Pitfall);
}

void TestRubricEditor::verdictsAndScore()
{
    RubricModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setRubric(fourItems());
    // Verdicts met, not met, met, met: (4·1 + 2·0 + 1·1 − 3·1) / 7 = 2/7.
    m.setVerdicts({1.0, 0.0, 1.0, 1.0});
    QVERIFY(std::abs(*m.score() - 2.0 / 7.0) < kTol);
    QCOMPARE(m.index(0, RubricModel::VerdictColumn).data().toString(), QString("met"));
    QCOMPARE(m.index(1, RubricModel::VerdictColumn).data().toString(), QString("not met"));
    QVERIFY(std::abs(m.index(3, RubricModel::ContributionColumn).data(RubricModel::ValueRole).toDouble() + 3.0 / 7.0) < kTol);
    QCOMPARE(m.index(0, RubricModel::ContributionColumn).data().toString(), QString("0.571")); // 4/7
    // Pitfalls met outweigh: met only the pitfall → −3/7, clamped to 0.
    m.setVerdicts({0.0, 0.0, 0.0, 1.0});
    QCOMPARE(*m.score(), 0.0);
    // A continuous judge: c = 0.7, 0.5, 0, 0 → (2.8 + 1) / 7.
    m.setVerdicts({0.7, 0.5, 0.0, 0.0});
    QVERIFY(std::abs(*m.score() - 3.8 / 7.0) < kTol);
    QCOMPARE(m.index(0, RubricModel::VerdictColumn).data().toString(), QString("0.70"));
    // Editing an item's criterion clears its verdict (its request changes): no score.
    QVERIFY(m.setData(m.index(1, RubricModel::CriterionColumn), "States b in full."));
    QVERIFY(!m.verdict(1));
    QCOMPARE(m.verdict(0), std::optional<double>(0.7));
    QVERIFY(!m.score());
    QCOMPARE(m.index(1, RubricModel::VerdictColumn).data().toString(), QString("—"));
    // A title is not asked of the judge: the verdict stays.
    QVERIFY(m.setData(m.index(0, RubricModel::TitleColumn), "t"));
    QCOMPARE(m.verdict(0), std::optional<double>(0.7));
    // A list of another length clears them all.
    m.setVerdicts({1.0});
    QVERIFY(!m.verdict(0));
}

void TestRubricEditor::addDeleteMove()
{
    RubricEditor e;
    RubricModel *m = e.model();
    QAbstractItemModelTester tester(m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(e.openSampleRubric(std::make_shared<const judge::Rubric>(fourItems()), "q7-c1", 3));
    m->setVerdicts({1.0, 0.0, 1.0, 0.0});
    // Down: b goes below c, its verdict with it.
    e.table()->setCurrentIndex(m->index(1, RubricModel::CriterionColumn));
    e.findChild<QPushButton *>("rubricDown")->click();
    QCOMPARE(criterion(*m, 1), QString("States c."));
    QCOMPARE(criterion(*m, 2), QString("States b."));
    QCOMPARE(m->verdict(2), std::optional<double>(0.0));
    QCOMPARE(e.table()->currentIndex().row(), 2);
    // Up twice: b is first.
    e.findChild<QPushButton *>("rubricUp")->click();
    e.findChild<QPushButton *>("rubricUp")->click();
    QCOMPARE(criterion(*m, 0), QString("States b."));
    QCOMPARE(criterion(*m, 1), QString("States a."));
    QVERIFY(!e.findChild<QPushButton *>("rubricUp")->isEnabled()); // at the top
    // Delete: a goes.
    e.table()->setCurrentIndex(m->index(1, 0));
    e.findChild<QPushButton *>("rubricRemove")->click();
    QCOMPARE(m->rowCount(), 3);
    QCOMPARE(criterion(*m, 1), QString("States c."));
    // Add after the current item: Important 3, its criterion to be written; until then the
    // rubric is refused, naming the item and field, and Apply is off.
    e.table()->setCurrentIndex(m->index(0, 0));
    e.findChild<QPushButton *>("rubricAdd")->click();
    QCOMPARE(m->rowCount(), 4);
    QCOMPARE(m->rubric().items[1].weight, 3.0);
    QCOMPARE(m->rubric().items[1].category, RubricCategory::Important);
    QVERIFY2(m->problem().contains("items[1]"), qPrintable(m->problem()));
    QVERIFY(!e.findChild<QPushButton *>("rubricApply")->isEnabled());
    QVERIFY(m->setData(m->index(1, RubricModel::CriterionColumn), "States e."));
    QVERIFY(e.findChild<QPushButton *>("rubricApply")->isEnabled());
    // Apply hands the rubric over with the question's scope; the edits count as kept.
    judge::Rubric applied;
    RubricEditor::Scope scope = RubricEditor::Scope::Every;
    connect(&e, &RubricEditor::applyRequested, &e, [&](const judge::Rubric &r, RubricEditor::Scope s) {
        applied = r;
        scope = s;
    });
    QVERIFY(e.apply());
    QCOMPARE(applied.items.size(), size_t(4));
    QCOMPARE(applied.items[1].criterion, std::string("States e."));
    QCOMPARE(scope, RubricEditor::Scope::Question);
    QVERIFY(!m->isModified());
}

void TestRubricEditor::filesInAndOut()
{
    QTemporaryDir dir;
    RubricEditor e;
    QString error;
    // HealthBench form in (points, tags; a negative item is a pitfall).
    const QString hb = write(dir, "hb.json", R"({"rubrics": [
        {"criterion": "Says 30日以内.", "points": 5, "tags": ["axis:accuracy"]},
        {"criterion": "Says 14日以内.", "points": -2, "tags": []}]})");
    QVERIFY2(e.openFile(hb, &error), qPrintable(error));
    QCOMPARE(e.filePath(), hb);
    QCOMPARE(e.scope(), RubricEditor::Scope::Every);
    QCOMPARE(e.model()->rowCount(), 2);
    QCOMPARE(e.model()->rubric().items[1].category, RubricCategory::Pitfall);
    QCOMPARE(e.model()->rubric().items[0].tags, std::vector<std::string>{"axis:accuracy"});
    // Out as RaR: the category as the description's prefix, the tags kept.
    const QString rar = dir.filePath("rar.json");
    QVERIFY2(e.saveFile(rar, RubricEditor::Format::RaR, &error), qPrintable(error));
    QFile f(rar);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const json j = json::parse(f.readAll().toStdString());
    QCOMPARE(j[1]["description"].get<std::string>(), std::string("Pitfall Criteria: Says 14日以内."));
    QCOMPARE(j[1]["weight"].get<int>(), -2);
    QCOMPARE(j[0]["tags"][0].get<std::string>(), std::string("axis:accuracy"));
    // And back as HealthBench: the same rubric.
    const QString hb2 = dir.filePath("hb2.json");
    QVERIFY(e.saveFile(hb2, RubricEditor::Format::HealthBench, &error));
    RubricEditor other;
    QVERIFY(other.openFile(hb2, &error));
    QCOMPARE(judge::toRaR(other.model()->rubric()), judge::toRaR(e.model()->rubric()));
    // An invalid rubric is not written; the message names the item and field.
    QVERIFY(e.model()->setData(e.model()->index(0, RubricModel::CriterionColumn), ""));
    QVERIFY(!e.saveFile(dir.filePath("bad.json"), RubricEditor::Format::RaR, &error));
    QVERIFY2(error.contains("items[0]") && error.contains("criterion"), qPrintable(error));
    QVERIFY(!QFileInfo::exists(dir.filePath("bad.json")));
}

void TestRubricEditor::malformedFileKeepsEdits()
{
    QTemporaryDir dir;
    RubricEditor e;
    e.setDiscardHandler([] { return true; });
    QVERIFY(e.openSampleRubric(std::make_shared<const judge::Rubric>(fourItems()), "q1-c1", 4));
    QVERIFY(e.model()->setData(e.model()->index(0, RubricModel::CriterionColumn), "My own edit."));
    QString error;
    // A weight that is a string: refused, naming the file, the item and the field.
    const QString bad = write(dir, "bad.json", R"([{"title": "t", "description": "Essential Criteria: x", "weight": 5},
        {"title": "u", "description": "Important Criteria: y", "weight": "high"}])");
    QVERIFY(!e.openFile(bad, &error));
    QVERIFY2(error.contains(bad) && error.contains("[1].weight"), qPrintable(error));
    // Not JSON: the same.
    const QString broken = write(dir, "broken.json", "[{\"title\": ");
    QVERIFY(!e.openFile(broken, &error));
    QVERIFY2(error.contains(broken) && error.contains("not valid JSON"), qPrintable(error));
    QVERIFY(!e.openFile(dir.filePath("missing.json"), &error));
    QVERIFY2(error.contains("missing.json"), qPrintable(error));
    // Nothing lost: the edit is there, still unsaved, from the same sample.
    QCOMPARE(criterion(*e.model(), 0), QString("My own edit."));
    QVERIFY(e.model()->isModified());
    QCOMPARE(e.sampleId(), QString("q1-c1"));
}

void TestRubricEditor::unsavedEditsAsk()
{
    QTemporaryDir dir;
    const QString file = write(dir, "r.json", R"([{"description": "Essential Criteria: z", "weight": 1}])");
    RubricEditor e;
    int asked = 0;
    bool answer = false;
    e.setDiscardHandler([&] {
        ++asked;
        return answer;
    });
    QVERIFY(e.openSampleRubric(std::make_shared<const judge::Rubric>(fourItems()), "q1-c1", 4));
    QCOMPARE(asked, 0); // nothing to lose
    QVERIFY(e.openFile(file, nullptr));
    QCOMPARE(asked, 0);
    QVERIFY(e.model()->setData(e.model()->index(0, RubricModel::WeightColumn), 2.0));
    // Kept: neither another file nor a sample's rubric replaces the edit.
    QString error;
    QVERIFY(!e.openFile(file, &error));
    QVERIFY(error.isEmpty());
    QVERIFY(!e.openSampleRubric(nullptr, "q2-c1", 1));
    QCOMPARE(asked, 2);
    QCOMPARE(e.model()->rubric().items[0].weight, 2.0);
    // Saved: nothing to lose any more.
    QVERIFY(e.saveFile(dir.filePath("kept.json"), RubricEditor::Format::RaR, &error));
    QVERIFY(e.openSampleRubric(nullptr, "q2-c1", 1));
    QCOMPARE(asked, 2);
    QCOMPARE(e.model()->rowCount(), 0);
    // Dropped when the user says so.
    e.model()->appendItem();
    answer = true;
    QVERIFY(e.openFile(file, &error));
    QCOMPARE(asked, 3);
    QCOMPARE(e.model()->rowCount(), 1);
}

QTEST_MAIN(TestRubricEditor)
#include "tst_rubriceditor.moc"
