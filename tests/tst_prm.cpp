// Preference pairs for the process reward model (core/prm): sibling pairs from a tree,
// the tree's and a judge's labels, agreement (Cohen's κ, Krippendorff's α) on tables
// worked out by hand, label resolution, the DPO / stepwise export and import, and the run
// store's tables for them.
#include "data/jsonl.h"
#include "judge/judgeclient.h"
#include "judge/verdict.h"
#include "prm/agreement.h"
#include "prm/pairjudge.h"
#include "prm/preference.h"
#include "tasks/multihop/multihopperturbedpairs.h"
#include "tasks/multihop/multihopreferencejudge.h"
#include "store/runstore.h"
#include "store/storeerror.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <nlohmann/json.hpp>

using namespace rwb;
using prm::Choice;

namespace {

// root → c1 "x" (N 2, Q 0.9), c2 "y" (N 1, Q 0.1), c3 "z" (unvisited), c4 "x" (the same
// text as c1; N 1, Q 0), c5 "w" (N 1, Q 0.6); c1 → d1 "p" (N 1, Q 1), d2 "q" (N 1, Q 0.5),
// d3 "r" (N 1, Q 0.45).
mcts::SearchRecord handTree()
{
    mcts::SearchRecord r;
    r.questionId = "q1";
    r.question = "Who?";
    r.goldAnswer = "Ann";
    mcts::SearchTree &t = r.tree;
    const int c1 = t.addChild(0, "x", 0.2, 1), c2 = t.addChild(0, "y", 0.2, 1), c3 = t.addChild(0, "z", 0.2, 1),
              c4 = t.addChild(0, "x", 0.2, 1), c5 = t.addChild(0, "w", 0.2, 1);
    t.setStatistics(c1, 2, 1.8);
    t.setStatistics(c2, 1, 0.1);
    t.setStatistics(c3, 0, 0);
    t.setStatistics(c4, 1, 0.0);
    t.setStatistics(c5, 1, 0.6);
    const int d1 = t.addChild(c1, "p", 0.5, 2), d2 = t.addChild(c1, "q", 0.5, 2), d3 = t.addChild(c1, "r", 0.5, 2);
    t.setStatistics(d1, 1, 1.0);
    t.setStatistics(d2, 1, 0.5);
    t.setStatistics(d3, 1, 0.45);
    return r;
}

// The unordered node pair of a pair.
std::pair<int, int> nodes(const prm::StepPair &p) { return {std::min(p.nodeA, p.nodeB), std::max(p.nodeA, p.nodeB)}; }

prm::Label label(int64_t pair, prm::Source source, const std::string &who, Choice c)
{
    prm::Label l;
    l.pairId = pair;
    l.source = source;
    l.annotator = who;
    l.choice = c;
    return l;
}

std::map<int64_t, Choice> ratings(const std::string &letters)
{
    std::map<int64_t, Choice> out;
    for (size_t i = 0; i < letters.size(); ++i) {
        const char c = letters[i];
        if (c != '.')
            out[static_cast<int64_t>(i)] = c == 'A' ? Choice::A : c == 'B' ? Choice::B : c == 'T' ? Choice::Tie : Choice::Skip;
    }
    return out;
}

// A judge that prefers the step with "good" in it, and one that always says A.
class PreferGood final : public judge::ChatBackend {
public:
    explicit PreferGood(bool alwaysA) : m_alwaysA(alwaysA) {}
    std::string identity() const override { return m_alwaysA ? "test always-a" : "test prefer-good"; }
    std::string model() const override { return m_alwaysA ? "always-a" : "prefer-good"; }
    judge::ChatReply complete(const judge::ChatRequest &request, int &attempts) const override
    {
        attempts = 1;
        const std::string user = request.messages.back().content;
        const size_t a = user.find("Step A:\n"), b = user.find("Step B:\n");
        const bool aGood = user.substr(a, b - a).find("good") != std::string::npos;
        std::string content;
        if (user.find("garble") != std::string::npos)
            content = "I think the first one.";
        else if (m_alwaysA)
            content = R"({"choice": "A", "reason": "first"})";
        else
            content = std::string("```json\n{\"choice\": \"Step ") + (aGood ? "A" : "B") + "\", \"reason\": \"good\"}\n```";
        judge::ChatReply reply;
        reply.choices.push_back({content, "stop", {}});
        return reply;
    }

private:
    bool m_alwaysA;
};

} // namespace

class TestPrm : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void siblingPairsFollowMarginVisitsAndCap()
    {
        const mcts::SearchRecord r = handTree();
        prm::PairOptions o; // margin 0.2, min visits 1, at most 2 per state
        const std::vector<prm::StepPair> pairs = prm::siblingPairs(r, o, 7, "s");
        // Root: candidates (c1,c2) 0.8, (c4,c5) 0.6, (c2,c5) 0.5, (c1,c5) 0.3; (c1,c4) share a
        // text, c3 is unvisited, (c2,c4) differ by 0.1. The two largest. Under c1: (d1,d3)
        // 0.55, (d1,d2) 0.5; (d2,d3) 0.05.
        QCOMPARE(pairs.size(), size_t(4));
        QCOMPARE(nodes(pairs[0]), std::make_pair(1, 2));
        QCOMPARE(nodes(pairs[1]), std::make_pair(4, 5));
        QCOMPARE(nodes(pairs[2]), std::make_pair(6, 8));
        QCOMPARE(nodes(pairs[3]), std::make_pair(6, 7));
        QVERIFY(pairs[0].history.empty());
        QCOMPARE(pairs[2].history, std::vector<std::string>{"x"});
        QCOMPARE(pairs[2].parentNode, 1);
        QCOMPARE(pairs[2].context(), std::string("Who?\n\nx"));
        QCOMPARE(pairs[0].treeId, int64_t(7));
        QCOMPARE(pairs[0].set, std::string("s"));
        for (const prm::StepPair &p : pairs) {
            QCOMPARE(p.stepA, r.tree.node(p.nodeA).step);
            QCOMPARE(p.valueA, r.tree.node(p.nodeA).q());
            QCOMPARE(p.visitsB, r.tree.node(p.nodeB).visits);
        }
        // The seed decides A and B, and only that.
        bool anyOrderDiffers = false;
        for (uint64_t seed = 2; seed < 12; ++seed) {
            o.seed = seed;
            const std::vector<prm::StepPair> other = prm::siblingPairs(r, o);
            QCOMPARE(other.size(), pairs.size());
            for (size_t i = 0; i < pairs.size(); ++i) {
                QCOMPARE(nodes(other[i]), nodes(pairs[i]));
                anyOrderDiffers = anyOrderDiffers || other[i].nodeA != pairs[i].nodeA;
            }
        }
        QVERIFY(anyOrderDiffers);
        o.seed = 1;
        o.maxPerParent = 10;
        QCOMPARE(prm::siblingPairs(r, o).size(), size_t(6));
        o.margin = 0.55;
        QCOMPARE(prm::siblingPairs(r, o).size(), size_t(3)); // 0.8, 0.6, 0.55
        o.minVisits = 2;
        QCOMPARE(prm::siblingPairs(r, o).size(), size_t(0)); // only c1 has two visits
    }

    void manualPairsAndTreeLabels()
    {
        const mcts::SearchRecord r = handTree();
        const prm::StepPair p = prm::manualPair(r, 7, 6);
        QCOMPARE(p.origin, std::string("manual"));
        QCOMPARE(p.stepA, std::string("q"));
        QCOMPARE(p.stepB, std::string("p"));
        QCOMPARE(p.history, std::vector<std::string>{"x"});
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, prm::manualPair(r, 1, 6)); // not siblings
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, prm::manualPair(r, 2, 2));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, prm::manualPair(r, 0, 2)); // the root is no step
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, prm::manualPair(r, 1, 99));
        const prm::Label l = prm::treeLabel(p, 0.2); // Q 0.5 vs 1.0
        QCOMPARE(l.choice, Choice::B);
        QCOMPARE(l.source, prm::Source::Tree);
        QCOMPARE(l.reason, std::string("Q 0.50 vs 1.00 (N 1 vs 1)"));
        QCOMPARE(prm::treeLabel(prm::manualPair(r, 7, 8), 0.2).choice, Choice::Tie); // 0.5 vs 0.45
        QCOMPARE(prm::treeLabel(prm::manualPair(r, 8, 7), 0.0).choice, Choice::B);
    }

    void cohenKappaByHand()
    {
        // Rater 1: A A A A A B B B T T; rater 2: A A A B B B B T T A. Agreement on items
        // 1-3, 6, 7, 9: p_o = 0.6. Shares: rater 1 A .5 B .3 T .2; rater 2 A .4 B .4 T .2;
        // p_e = .2 + .12 + .04 = .36; κ = (.6 − .36) / .64 = 0.375.
        const prm::PairwiseAgreement a = prm::pairwiseAgreement(ratings("AAAAABBBTT"), ratings("AAABBBBTTA"));
        QCOMPARE(a.n, size_t(10));
        QCOMPARE(a.agree, size_t(6));
        QVERIFY(std::abs(a.observed - 0.6) < 1e-12);
        QVERIFY(std::abs(a.kappa - 0.375) < 1e-12);
        // Only the items both labelled count (the '.' items and skips drop out): the same
        // ten with three more on one side and a skip on the other.
        std::map<int64_t, Choice> first = ratings("AAAAABBBTTAB.");
        std::map<int64_t, Choice> second = ratings("AAABBBBTTA..A");
        second[10] = Choice::Skip;
        const prm::PairwiseAgreement b = prm::pairwiseAgreement(first, second);
        QCOMPARE(b.n, size_t(10));
        QVERIFY(std::abs(b.kappa - 0.375) < 1e-12);
        // Perfect agreement with two categories: κ 1; one category throughout: undefined.
        QVERIFY(std::abs(prm::pairwiseAgreement(ratings("AB"), ratings("AB")).kappa - 1.0) < 1e-12);
        QVERIFY(std::isnan(prm::pairwiseAgreement(ratings("AAA"), ratings("AAA")).kappa));
        QVERIFY(std::isnan(prm::pairwiseAgreement(ratings("A"), ratings(".A")).observed));
        // Systematic disagreement is below chance: A B vs B A gives p_o 0, p_e .5, κ −1.
        QVERIFY(std::abs(prm::pairwiseAgreement(ratings("AB"), ratings("BA")).kappa + 1.0) < 1e-12);
    }

    void krippendorffAlphaByHand()
    {
        // Units: {A A A}, {A B}, {B B T}, {T}. Coincidences: o_AA = 6·½ = 3, o_AB = o_BA = 1,
        // o_BB = 2·½ = 1, o_BT = o_TB = 2·½ = 1; n_A 4, n_B 3, n_T 1, n 8. Σ_{c≠k} o = 4;
        // Σ_{c≠k} n_c·n_k = 2(12 + 4 + 3) = 38; α = 1 − 7·4/38 = 10/38.
        using C = Choice;
        const std::vector<std::vector<C>> units{{C::A, C::A, C::A}, {C::A, C::B}, {C::B, C::B, C::Tie}, {C::Tie}};
        QVERIFY(std::abs(prm::krippendorffAlpha(units) - 10.0 / 38.0) < 1e-12);
        // Skips are not values: the same with skips mixed in.
        const std::vector<std::vector<C>> skipped{
            {C::A, C::Skip, C::A, C::A}, {C::A, C::B, C::Skip}, {C::B, C::B, C::Tie}, {C::Tie, C::Skip}};
        QVERIFY(std::abs(prm::krippendorffAlpha(skipped) - 10.0 / 38.0) < 1e-12);
        // Two raters, no missing values: α = 1 − (n−1)·D_o/D_e. Units {A,A} {B,B} {A,B}:
        // o_AA 2, o_BB 2, o_AB = o_BA 1; n_A = n_B = 3, n 6; α = 1 − 5·2/18 = 4/9.
        QVERIFY(std::abs(prm::krippendorffAlpha({{C::A, C::A}, {C::B, C::B}, {C::A, C::B}}) - 4.0 / 9.0) < 1e-12);
        QVERIFY(std::abs(prm::krippendorffAlpha({{C::A, C::A}, {C::B, C::B}}) - 1.0) < 1e-12);
        QVERIFY(std::isnan(prm::krippendorffAlpha({{C::A, C::A}, {C::A, C::A}}))); // no expected disagreement
        QVERIFY(std::isnan(prm::krippendorffAlpha({{C::A}, {C::B}})));             // nothing pairable
    }

    void agreementTableAndConsensus()
    {
        using S = prm::Source;
        std::vector<prm::Label> ls;
        // Pairs 1-4: tree A A B B; judge A B B B; ann A B B T; bob A B A (pair 4 skipped).
        const char *tree = "AABB", *judge = "ABBB", *ann = "ABBT", *bob = "ABAS";
        for (int i = 0; i < 4; ++i) {
            const auto c = [](char x) {
                return x == 'A' ? Choice::A : x == 'B' ? Choice::B : x == 'T' ? Choice::Tie : Choice::Skip;
            };
            ls.push_back(label(i + 1, S::Tree, "tree", c(tree[i])));
            ls.push_back(label(i + 1, S::Judge, "m", c(judge[i])));
            ls.push_back(label(i + 1, S::Human, "ann", c(ann[i])));
            ls.push_back(label(i + 1, S::Human, "bob", c(bob[i])));
        }
        const prm::AgreementTable t = prm::agreementTable(ls);
        QCOMPARE(t.raters, (std::vector<std::string>{"tree", "judge: m", "human: ann", "human: bob", prm::kHumanMajority}));
        // ann vs bob on pairs 1-3: A=A, B=B, B≠A → 2/3.
        QCOMPARE(t.matrix[2][3].n, size_t(3));
        QVERIFY(std::abs(t.matrix[2][3].observed - 2.0 / 3.0) < 1e-12);
        // The people's majority: pair 1 A, 2 B, 3 tied (B vs A) → none, 4 only ann → T.
        QCOMPARE(t.labels.at(prm::kHumanMajority), (std::map<int64_t, Choice>{{1, Choice::A}, {2, Choice::B}, {4, Choice::Tie}}));
        // judge vs majority: 1 A=A, 2 B=B, 4 B≠T → 2/3.
        QVERIFY(std::abs(t.matrix[1][4].observed - 2.0 / 3.0) < 1e-12);
        QCOMPARE(t.humanUnits, size_t(3));
        // α among ann and bob: units {A,A} {B,B} {B,A} → 4/9 (as worked out above).
        QVERIFY(std::abs(t.alphaHumans - 4.0 / 9.0) < 1e-12);
        const prm::PairConsensus c = prm::pairConsensus({ls[8], ls[9], ls[10], ls[11]}); // pair 3: B B B A
        QVERIFY(c.disagreement);
        QCOMPARE(c.majority, Choice::B);
        QCOMPARE(c.labels, 4);
        QVERIFY(!prm::pairConsensus({ls[0], ls[1], ls[2], ls[3]}).disagreement); // pair 1: all A

        // Resolution: people first (majority), then the judge, then the tree.
        const std::map<int64_t, prm::Label> r = prm::resolveLabels(ls, {S::Human, S::Judge, S::Tree});
        QCOMPARE(r.at(1).choice, Choice::A);
        QCOMPARE(r.at(1).annotator, std::string("majority of 2"));
        QCOMPARE(r.at(3).source, S::Judge); // the people tie on pair 3: the judge's B
        QCOMPARE(r.at(3).choice, Choice::B);
        QCOMPARE(r.at(4).choice, Choice::Tie); // ann alone (bob skipped)
        QCOMPARE(r.at(4).annotator, std::string("ann"));
        const std::map<int64_t, prm::Label> treeFirst = prm::resolveLabels(ls, {S::Tree});
        QCOMPARE(treeFirst.at(2).choice, Choice::A);
    }

    void exportAndImportRoundTrip()
    {
        const mcts::SearchRecord r = handTree();
        prm::PairOptions o;
        std::vector<prm::StepPair> pairs = prm::siblingPairs(r, o, 1, "s");
        for (size_t i = 0; i < pairs.size(); ++i)
            pairs[i].id = static_cast<int64_t>(i + 1);
        std::string dpo, stepwise;
        std::vector<prm::Label> labels;
        for (const prm::StepPair &p : pairs) {
            prm::Label l = prm::treeLabel(p, 0.2);
            l.reason = "because \"quoted\"\nand new line";
            labels.push_back(l);
            dpo += prm::dpoLine(p, l) + "\n";
            for (const std::string &s : prm::stepwiseLines(p, l))
                stepwise += s + "\n";
        }
        // A DPO line: chosen is the step with the larger Q.
        const nlohmann::json first = nlohmann::json::parse(dpo.substr(0, dpo.find('\n')));
        QCOMPARE(first["chosen"].get<std::string>(), std::string("x")); // c1 Q 0.9 over c2 0.1
        QCOMPARE(first["rejected"].get<std::string>(), std::string("y"));
        QCOMPARE(first["prompt"].get<std::string>(), std::string("Who?\n\n"));
        QCOMPARE(first["chosen_value"].get<double>(), 0.9);
        // A stepwise pair: two lines, true then false, the history in the prompt.
        const nlohmann::json third = nlohmann::json::parse(stepwise.substr(0, stepwise.find('\n')));
        QCOMPARE(third["labels"], nlohmann::json::array({true}));
        QCOMPARE(third["completions"], nlohmann::json::array({"x"}));
        for (const std::string &text : {dpo, stepwise}) {
            const prm::ImportedPairs in = prm::parsePreferenceText(text, "/tmp/pairs.jsonl", "back");
            QCOMPARE(in.pairs.size(), pairs.size());
            QCOMPARE(in.unpaired, size_t(0));
            for (size_t i = 0; i < pairs.size(); ++i) {
                const prm::StepPair &p = pairs[i], &q = in.pairs[i];
                const prm::Label &l = in.labels[i];
                QCOMPARE(q.set, std::string("back"));
                QCOMPARE(q.origin, std::string("import"));
                QCOMPARE(q.question, p.question);
                QCOMPARE(q.questionId, p.questionId);
                QCOMPARE(q.history, p.history);
                QCOMPARE(q.gold, p.gold);
                // The same steps, values and visits, and the same preference, whatever the order.
                const bool same = q.stepA == p.stepA;
                QCOMPARE(same ? q.stepB : q.stepA, p.stepB);
                QCOMPARE(same ? q.valueA : q.valueB, p.valueA);
                QCOMPARE(same ? q.visitsB : q.visitsA, p.visitsB);
                const Choice expected = same ? labels[i].choice : (labels[i].choice == Choice::A ? Choice::B : Choice::A);
                QCOMPARE(l.choice, expected);
                QCOMPARE(l.source, prm::Source::Tree);
                QCOMPARE(l.annotator, std::string("tree"));
                QCOMPARE(l.reason, labels[i].reason);
            }
        }
        // Ties export nothing.
        prm::Label tie = labels[0];
        tie.choice = Choice::Tie;
        QVERIFY(prm::dpoLine(pairs[0], tie).empty());
        QVERIFY(prm::stepwiseLines(pairs[0], tie).empty());
        // Plain TRL lines: no extra fields; the prompt becomes the question, the annotator
        // the file's name; stepwise completions before the last are the history.
        const prm::ImportedPairs plain = prm::parsePreferenceText(
            R"({"id": 7, "prompt": "P", "chosen": "good", "rejected": "bad"})"
            "\n"
            R"({"prompt": "Q", "completions": ["h1", "s1"], "labels": [true, false]})"
            "\n"
            R"({"prompt": "Q", "completions": ["h1", "s2"], "labels": [true, true]})"
            "\n"
            R"({"prompt": "Q", "completions": ["s3"], "labels": [false]})"
            "\n",
            "/data/trl.jsonl", "t");
        QCOMPARE(plain.pairs.size(), size_t(2));
        QCOMPARE(plain.unpaired, size_t(1));
        QCOMPARE(plain.pairs[0].question, std::string("P"));
        QCOMPARE(plain.pairs[0].questionId, std::string("P")); // a question is its own id (a row's "id" is not one)
        QCOMPARE(plain.labels[0].annotator, std::string("trl.jsonl"));
        QCOMPARE(plain.labels[0].source, prm::Source::Import);
        const prm::StepPair &sw = plain.pairs[1];
        QCOMPARE(sw.history, std::vector<std::string>{"h1"});
        QCOMPARE(plain.labels[1].choice == Choice::A ? sw.stepA : sw.stepB, std::string("s2"));
    }

    void importErrorsNameLineAndField_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << "{\"prompt\": \"P\", \"chosen\": \"a\", \"rejected\": \"b\"}\n{oops" << "f.jsonl:2:";
        QTest::newRow("no prompt") << "{\"chosen\": \"a\", \"rejected\": \"b\"}" << "\"prompt\"";
        QTest::newRow("no rejected") << "{\"prompt\": \"P\", \"chosen\": \"a\"}" << "\"rejected\"";
        QTest::newRow("labels length") << "{\"prompt\": \"P\", \"completions\": [\"a\"], \"labels\": [true, false]}"
                                       << "\"labels\"";
        QTest::newRow("history") << "{\"prompt\": \"P\", \"chosen\": \"a\", \"rejected\": \"b\", \"history\": [1]}"
                                 << "history";
        QTest::newRow("source") << "{\"prompt\": \"P\", \"chosen\": \"a\", \"rejected\": \"b\", \"source\": \"crowd\"}"
                                << "\"source\"";
    }
    void importErrorsNameLineAndField()
    {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        try {
            prm::parsePreferenceText(text.toStdString(), "f.jsonl", "s");
            QFAIL("no error");
        } catch (const data::InputException &e) {
            const QString what = QString::fromStdString(e.error().toString());
            QVERIFY2(what.contains(expected), qPrintable(what));
            QVERIFY2(what.startsWith("f.jsonl:"), qPrintable(what));
        }
    }

    void judgeVerdictsAndPositionBias()
    {
        // Reading replies.
        QCOMPARE(prm::readPairVerdict(R"({"choice": "B", "reason": "r"})").choice, Choice::B);
        QCOMPARE(prm::readPairVerdict("```json\n{\"choice\": \" step a \"}\n```").choice, Choice::A);
        QCOMPARE(prm::readPairVerdict(R"(Sure. {"choice": "TIE", "reason": "same"})").choice, Choice::Tie);
        QCOMPARE(prm::readPairVerdict(R"({"choice": "b", "reason": "because"})").reason, std::string("because"));
        QVERIFY_THROWS_EXCEPTION(judge::VerdictError, prm::readPairVerdict(R"({"choice": "C"})"));
        QVERIFY_THROWS_EXCEPTION(judge::VerdictError, prm::readPairVerdict(R"({"pick": "A"})"));
        QVERIFY_THROWS_EXCEPTION(judge::VerdictError, prm::readPairVerdict("A"));

        // The request shows the history and both steps, swapped when asked.
        prm::StepPair p;
        p.id = 1;
        p.question = "Q?";
        p.history = {"<step>h</step>"};
        p.stepA = "a good step";
        p.stepB = "a bad step";
        const judge::ChatRequest req = prm::pairJudgeRequest(p, false, {});
        const std::string user = req.messages.back().content;
        QVERIFY(user.find("1. <step>h</step>") != std::string::npos);
        QVERIFY(user.find("Step A:\na good step") < user.find("Step B:\na bad step"));
        const std::string swapped = prm::pairJudgeRequest(p, true, {}).messages.back().content;
        QVERIFY(swapped.find("Step A:\na bad step") != std::string::npos);

        prm::StepPair q = p; // the good step in B
        q.id = 2;
        std::swap(q.stepA, q.stepB);
        prm::StepPair g = p; // a reply that cannot be read
        g.id = 3;
        g.stepA = "garble";
        judge::JudgeOptions jo;
        jo.backend = "http";
        jo.server.url = "http://127.0.0.1:1/v1";
        {
            const judge::JudgeClient client(jo, std::make_shared<PreferGood>(false));
            prm::PairJudgeOptions o;
            o.bothOrders = true;
            const std::vector<prm::JudgedPair> out = prm::judgePairs(client, {p, q, g}, o);
            QCOMPARE(out.size(), size_t(3));
            QVERIFY(out[0].ok && out[1].ok);
            QCOMPARE(out[0].label.choice, Choice::A);
            QCOMPARE(out[1].label.choice, Choice::B); // follows the step, not the place
            QVERIFY(!out[0].orderDependent);
            QCOMPARE(out[0].label.annotator, std::string("prefer-good"));
            QCOMPARE(out[0].label.pairId, int64_t(1));
            QVERIFY(!out[2].ok);
            QVERIFY2(out[2].error.find("cannot be read") != std::string::npos, out[2].error.c_str());
        }
        {
            const judge::JudgeClient client(jo, std::make_shared<PreferGood>(true));
            prm::PairJudgeOptions o;
            const std::vector<prm::JudgedPair> once = prm::judgePairs(client, {q}, o);
            QCOMPARE(once[0].label.choice, Choice::A); // position-biased, taken at its word
            o.bothOrders = true;
            const std::vector<prm::JudgedPair> twice = prm::judgePairs(client, {q}, o);
            QVERIFY(twice[0].orderDependent);
            QCOMPARE(twice[0].label.choice, Choice::Tie);
            QVERIFY(twice[0].label.reason.rfind("order-dependent: a as asked, b with the steps swapped", 0) == 0);
        }
    }

    // rwb prm synth's pairs on a 2-hop question, worked out by hand with the reference
    // judge's points (tasks/multihop/multihopreferencejudge.h: follows 1, grounded 1, gold
    // value 2; an answer 4 when right, else 0). The pools come from both questions' chains.
    void perturbedPairsFromAGoldChain()
    {
        auto hop = [](const std::string &entity, const std::string &relation, const std::string &value,
                      const std::string &passage) {
            data::MultihopStep s;
            s.entity = entity;
            s.relation = relation;
            s.value = value;
            s.subquery = entity + " " + relation;
            s.subanswer = entity + "の" + relation + "は" + value + "です。";
            if (!passage.empty())
                s.retrieved = {{"kb-" + entity, entity, passage}};
            return s;
        };
        data::MultihopQuestion q;
        q.id = "q";
        q.question = "榊原 灯の勤務先の本社所在地はどこですか。";
        q.answer = "澄坂市";
        q.chain = {hop("榊原 灯", "勤務先", "翠光食品", "榊原 灯は翠光食品に勤務している。出身地は雪台市。"),
                   hop("翠光食品", "本社所在地", "澄坂市", "本社は澄坂市にある。創業者は朝霧 玲奈。")};
        data::MultihopQuestion other;
        other.id = "o";
        other.chain = {hop("榊原 灯", "出身地", "雪台市", "x"), hop("西野 湊", "勤務先", "翠光書房", "x"),
                       hop("翠光食品", "創業者", "朝霧 玲奈", "x"), hop("海原商事", "本社所在地", "雪台市", "x")};
        const prm::PerturbedPairMaker maker({q, other});
        const std::vector<prm::PerturbedPair> all = maker.pairs(q, 1, 0, 3);
        // Hop 1: other_relation names 雪台市 (榊原 灯's birthplace, on the passage's line: 1 + 1),
        // wrong_value 翠光書房 (not in the passage: 1), early_answer 榊原 灯 (0); the gold step 4.
        // Hop 2, after the gold hop 1: 朝霧 玲奈 (2), 雪台市 (1), answering 翠光食品 (0).
        // The final step: 雪台市 instead of 澄坂市 (0).
        std::map<std::pair<size_t, std::string>, int> expected{
            {{0, "other_relation"}, 2}, {{0, "wrong_value"}, 1}, {{0, "early_answer"}, 0},
            {{1, "other_relation"}, 2}, {{1, "wrong_value"}, 1}, {{1, "early_answer"}, 0},
            {{2, "wrong_answer"}, 0}};
        QCOMPARE(all.size(), expected.size());
        for (const prm::PerturbedPair &p : all) {
            const auto it = expected.find({p.pair.history.size(), p.kind});
            QVERIFY2(it != expected.end(), (p.kind + " at step " + std::to_string(p.pair.history.size())).c_str());
            QCOMPARE(p.spoiledPoints, it->second);
            QCOMPARE(p.goldPoints, 4);
            QCOMPARE(p.label.choice, Choice::A);
            QCOMPARE(p.label.source, prm::Source::Import);
            QVERIFY(p.pair.stepA != p.pair.stepB);
            expected.erase(it);
        }
        const std::string hop1 = "<step>榊原 灯の勤務先を調べる。</step><subquery>榊原 灯 勤務先</subquery><retrieval>榊原 灯："
                                 "榊原 灯は翠光食品に勤務している。出身地は雪台市。</retrieval><subanswer>榊原 灯の勤務先は翠光食品です。</subanswer>";
        for (const prm::PerturbedPair &p : all) {
            if (p.pair.history.size() == 0)
                QCOMPARE(p.pair.stepA, hop1);
            if (p.pair.history.size() == 1 && p.kind == "other_relation") {
                QCOMPARE(p.pair.history.front(), hop1);
                QVERIFY(p.pair.stepB.find("<subanswer>翠光食品の本社所在地は朝霧 玲奈です。</subanswer>") != std::string::npos);
            }
            if (p.kind == "wrong_answer")
                QCOMPARE(p.pair.stepB, std::string("<step>2回の検索で答えが分かった。</step><answer>雪台市</answer>"));
        }
        // One a step, the same ones for the same seed; the DPO lines import back.
        const std::vector<prm::PerturbedPair> one = maker.pairs(q, 1, 0, 1);
        QCOMPARE(one.size(), size_t(3));
        const std::vector<prm::PerturbedPair> again = maker.pairs(q, 1, 0, 1);
        std::string text;
        for (size_t i = 0; i < one.size(); ++i) {
            QCOMPARE(again[i].pair.stepB, one[i].pair.stepB);
            text += prm::dpoLine(one[i].pair, one[i].label) + "\n";
        }
        const prm::ImportedPairs in = prm::parsePreferenceText(text, "pairs.jsonl", "synth");
        QCOMPARE(in.pairs.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            QCOMPARE(in.pairs[i].questionId, std::string("q"));
            QCOMPARE(in.pairs[i].history, one[i].pair.history);
            QCOMPARE(in.labels[i].annotator, std::string("perturbed gold"));
        }
        // A hop without its retrieved passages is named.
        data::MultihopQuestion bare = q;
        bare.chain[1].retrieved.clear();
        try {
            maker.pairs(bare, 1, 0, 1);
            QFAIL("no exception");
        } catch (const std::invalid_argument &e) {
            QCOMPARE(std::string(e.what()), std::string("question q, hop 2: no retrieved passages (run rwb retrieve annotate --chain first)"));
        }
    }

    void referenceJudgeJudgesGivenTheHistory()
    {
        data::MultihopQuestion q;
        q.id = "q";
        q.question = "榊原 灯の勤務先の本社所在地はどこですか。";
        q.answer = "澄坂市";
        data::MultihopStep h1;
        h1.entity = "榊原 灯";
        h1.value = "翠光食品";
        data::MultihopStep h2;
        h2.entity = "翠光食品";
        h2.value = "澄坂市";
        q.chain = {h1, h2};
        const std::string right1 = "<step>勤務先を調べる。</step><subquery>榊原 灯 勤務先</subquery><retrieval>榊原 灯：榊原 灯は翠光食品に勤務している。</retrieval><subanswer>榊原 灯の勤務先は翠光食品です。</subanswer>";
        const std::string wrong1 = "<step>勤務先を調べる。</step><subquery>榊原 灯 勤務先</subquery><retrieval>榊原 灯：榊原 灯は翠光食品に勤務している。</retrieval><subanswer>榊原 灯の勤務先は翠光書房です。</subanswer>";
        using J = prm::ReferencePairJudge;
        QCOMPARE(J::namedValue("榊原 灯の勤務先は翠光食品です。"), std::string("翠光食品"));
        // Hop 1: looks up the question's entity (1), the value is in the passage (1), gold (2).
        QCOMPARE(J::worth(q, "", right1).points, 4);
        QCOMPARE(J::worth(q, "", wrong1).points, 1); // looks up the right entity only
        // Hop 2 after the wrong history: what to look up next is 翠光書房 (what the history
        // found), so the step that follows it scores the point for that; one that jumps to
        // the gold entity does not, though it names the gold value (2) from its passage (1).
        const std::string follows = "<step>本社を調べる。</step><subquery>翠光書房 本社所在地</subquery><retrieval>翠光書房：本社は雪台市にある。</retrieval><subanswer>翠光書房の本社所在地は雪台市です。</subanswer>";
        const std::string jumps = "<step>本社を調べる。</step><subquery>翠光食品 本社所在地</subquery><retrieval>翠光食品：本社は澄坂市にある。</retrieval><subanswer>翠光食品の本社所在地は澄坂市です。</subanswer>";
        QCOMPARE(J::worth(q, wrong1, follows).points, 2); // follows (1), grounded (1)
        QCOMPARE(J::worth(q, wrong1, jumps).points, 2);   // gold (2), not grounded about 翠光書房
        QCOMPARE(J::worth(q, right1, jumps).points, 4);
        QCOMPARE(J::worth(q, right1 + jumps, "<step>答える。</step><answer>澄坂市</answer>").points, 4);
        QCOMPARE(J::worth(q, right1 + jumps, "<step>答える。</step><answer>雪台市</answer>").points, 0);
        // Through the judge client: the prompt's numbered history is read back.
        prm::StepPair p;
        p.id = 5;
        p.question = q.question;
        p.history = {right1};
        p.stepA = follows;
        p.stepB = jumps;
        judge::JudgeOptions o;
        o.server.url = "reference";
        const judge::JudgeClient client(o, std::make_shared<J>(std::vector<data::MultihopQuestion>{q}));
        prm::PairJudgeOptions po;
        po.bothOrders = true;
        const std::vector<prm::JudgedPair> out = prm::judgePairs(client, {p}, po);
        QVERIFY2(out[0].ok, out[0].error.c_str());
        QCOMPARE(out[0].label.choice, Choice::B); // after the right first hop, the gold entity is next
        QCOMPARE(out[0].label.annotator, std::string("reference"));
        QVERIFY(!out[0].orderDependent);
        QVERIFY2(out[0].label.reason.find("step B looks up 翠光食品, names 澄坂市 (in its passages), the gold value") !=
                     std::string::npos,
                 out[0].label.reason.c_str());
        // A question it does not know: the call fails with the question named.
        p.question = "ほかの質問";
        const std::vector<prm::JudgedPair> unknown = prm::judgePairs(client, {p}, {});
        QVERIFY(!unknown[0].ok);
        QVERIFY2(unknown[0].error.find("ほかの質問") != std::string::npos, unknown[0].error.c_str());
    }

    void storeKeepsPairsAndLabels()
    {
        QTemporaryDir dir;
        const std::string path = dir.filePath("runs.sqlite").toStdString();
        store::RunStore s(path);
        QVERIFY(s.schemaVersion() >= 7); // pairs came with version 7
        const mcts::SearchRecord r = handTree();
        std::vector<prm::StepPair> pairs = prm::siblingPairs(r, prm::PairOptions{}, 0, "set one");
        QCOMPARE(s.addPairs(pairs), size_t(4));
        QVERIFY(pairs[0].id > 0 && pairs[3].id > pairs[0].id);
        std::vector<prm::StepPair> again = prm::siblingPairs(r, prm::PairOptions{}, 0, "set one");
        QCOMPARE(s.addPairs(again), size_t(0)); // the set holds them already: same ids
        QCOMPARE(again[2].id, pairs[2].id);
        // The same two steps the other way round are the same pair: the stored order comes back.
        std::vector<prm::StepPair> swapped{pairs[1]};
        std::swap(swapped[0].stepA, swapped[0].stepB);
        std::swap(swapped[0].valueA, swapped[0].valueB);
        QCOMPARE(s.addPairs(swapped), size_t(0));
        QCOMPARE(swapped[0].id, pairs[1].id);
        QCOMPARE(swapped[0].stepA, pairs[1].stepA);
        QCOMPARE(swapped[0].valueA, pairs[1].valueA);
        std::vector<prm::StepPair> other = prm::siblingPairs(r, prm::PairOptions{}, 0, "set two");
        QCOMPARE(s.addPairs(other), size_t(4));
        const std::vector<prm::StepPair> back = s.pairs("set one");
        QCOMPARE(back.size(), size_t(4));
        QCOMPARE(back[2].history, pairs[2].history);
        QCOMPARE(back[2].stepB, pairs[2].stepB);
        QCOMPARE(back[2].valueA, pairs[2].valueA);
        QCOMPARE(back[2].nodeB, pairs[2].nodeB);
        QCOMPARE(s.pairs("").size(), size_t(8));

        std::vector<prm::Label> ls{label(pairs[0].id, prm::Source::Human, "ann", Choice::A),
                                   label(pairs[0].id, prm::Source::Judge, "m", Choice::B)};
        ls[0].reason = "clearer";
        s.setLabels(ls);
        QVERIFY(ls[0].id > 0);
        QVERIFY(!ls[0].created.empty());
        // ann changes her mind: one label, the new one.
        std::vector<prm::Label> change{label(pairs[0].id, prm::Source::Human, "ann", Choice::Tie)};
        s.setLabels(change);
        QCOMPARE(change[0].id, ls[0].id);
        std::vector<prm::Label> stored = s.labels("set one");
        QCOMPARE(stored.size(), size_t(2));
        // By pair, then the source's name ("human" before "judge").
        QCOMPARE(stored[0].source, prm::Source::Human);
        QCOMPARE(stored[0].choice, Choice::Tie);
        QCOMPARE(stored[0].reason, std::string());
        QCOMPARE(stored[1].source, prm::Source::Judge);
        QVERIFY(s.labels("set two").empty());
        QVERIFY(s.removeLabel(pairs[0].id, prm::Source::Human, "ann"));
        QVERIFY(!s.removeLabel(pairs[0].id, prm::Source::Human, "ann"));
        QCOMPARE(s.labels("set one").size(), size_t(1));
        std::vector<prm::Label> unknown{label(999, prm::Source::Human, "ann", Choice::A)};
        QVERIFY_THROWS_EXCEPTION(store::StoreError, s.setLabels(unknown));
        const std::vector<store::RunStore::PairSetInfo> sets = s.pairSets();
        QCOMPARE(sets.size(), size_t(2));
        QCOMPARE(sets[0].name, std::string("set one"));
        QCOMPARE(sets[0].pairs, int64_t(4));
        QCOMPARE(sets[0].labels, int64_t(1));
        s.deletePairSet("set one");
        QCOMPARE(s.pairSets().size(), size_t(1));
        QVERIFY(s.labels("").empty());
        // The views other tools read.
        int rows = 0;
        s.query("SELECT pair_id, pair_set, step_a FROM v_prm_pairs", [&](const auto &, const auto &) {
            ++rows;
            return true;
        });
        QCOMPARE(rows, 4);
        // A reader sees them too.
        const store::RunStore reader(path, store::RunStore::OpenMode::ReadOnly);
        QCOMPARE(reader.pairs("set two").size(), size_t(4));
    }
};

QTEST_APPLESS_MAIN(TestPrm)
#include "tst_prm.moc"
