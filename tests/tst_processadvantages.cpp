// ProRAG's dual-granularity advantages (train/processadvantages.h): eq. 5's step reward,
// eq. 7's normalisation per step position within each group and eq. 8's token advantages
// on a 2-group, 3-step example worked out by hand, the format check of a step, and the
// split of a row's tokens into steps.
#include "tasks/multihop/multihoptask.h"
#include "train/processadvantages.h"

#include <QtTest>

#include <cmath>

using namespace rwb::train;

class TestProcessAdvantages : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void stepNormalisationByHand()
    {
        // G = 3. Group 0: rows with step rewards (0.9, 0.6, 0.8), (0.5, 0.2, 0.4), (0.7, 0.4).
        //   t 0: 0.9 0.5 0.7, mean 0.7, deviations ±0.2 and 0, s = √(0.08 / 2) = 0.2 → +1, −1, 0.
        //   t 1: 0.6 0.2 0.4, the same → +1, −1, 0.
        //   t 2: only the first two rows: 0.8 0.4, mean 0.6, s = √(0.08 / 1) = 0.2√2 → ±1/√2.
        // Group 1: (1, 1, 1), (1, 1, 1), (0.2, 0.8, 1.4).
        //   t 0: 1 1 0.2, mean 0.7333, deviations 0.2667 0.2667 −0.5333, s = √(0.4267 / 2)
        //        = 0.4619 → 1/√3, 1/√3, −2/√3 (the deviations are d, d, −2d with s = d√3).
        //   t 1: 1 1 0.8, the same shape → 1/√3, 1/√3, −2/√3.
        //   t 2: 1 1 1.4 → −1/√3, −1/√3, 2/√3.
        // ε = 0 to compare with the closed forms (the trainer uses ε = 1e-4).
        const std::vector<std::vector<double>> r{{0.9, 0.6, 0.8}, {0.5, 0.2, 0.4}, {0.7, 0.4},
                                                 {1.0, 1.0, 1.0}, {1.0, 1.0, 1.0}, {0.2, 0.8, 1.4}};
        const std::vector<std::vector<double>> a = processAdvantages(r, 3, true, 0.0);
        const double s2 = 1.0 / std::sqrt(2.0), s3 = 1.0 / std::sqrt(3.0);
        const std::vector<std::vector<double>> expected{{1, 1, s2},         {-1, -1, -s2},     {0, 0},
                                                        {s3, s3, -s3},      {s3, s3, -s3},     {-2 * s3, -2 * s3, 2 * s3}};
        QCOMPARE(a.size(), expected.size());
        for (size_t i = 0; i < a.size(); ++i) {
            QCOMPARE(a[i].size(), expected[i].size());
            for (size_t t = 0; t < a[i].size(); ++t)
                QVERIFY2(std::abs(a[i][t] - expected[i][t]) < 1e-12,
                         qPrintable(QString("row %1 step %2: %3 vs %4").arg(i).arg(t).arg(a[i][t]).arg(expected[i][t])));
        }
        // With ε = 1e-4 the first value is 0.2 / 0.2001.
        QVERIFY(std::abs(processAdvantages(r, 3)[0][0] - 0.2 / 0.2001) < 1e-12);
        // Without scaling: the deviations themselves.
        QVERIFY(std::abs(processAdvantages(r, 3, false)[5][0] - (0.2 - 2.2 / 3.0)) < 1e-12);
        // A step position one row reaches alone: no advantage (its deviation is 0).
        const std::vector<std::vector<double>> lone = processAdvantages({{0.3, 0.9}, {0.4}}, 2, true, 1e-4);
        QCOMPARE(lone[0][1], 0.0);
    }

    void tokenAdvantagesByHand()
    {
        // Eq. 8 for row 0 above with A_out 0.5, β 0.3: tokens x END | y y END | z EOS, where
        // END (7) ends a hop step. Steps 0 0 1 1 1 2 2; A = 0.5 + 0.3·(1, 1, 1/√2).
        const std::vector<int32_t> tokens{4, 7, 5, 5, 7, 6, 2};
        const std::vector<int> steps = tokenSteps(tokens, 7);
        QCOMPARE(steps, (std::vector<int>{0, 0, 1, 1, 1, 2, 2}));
        const double s2 = 1.0 / std::sqrt(2.0);
        const std::vector<double> a = tokenAdvantages(0.5, {1.0, 1.0, s2}, steps, 0.3);
        const std::vector<double> expected{0.8, 0.8, 0.8, 0.8, 0.8, 0.5 + 0.3 * s2, 0.5 + 0.3 * s2};
        for (size_t k = 0; k < a.size(); ++k)
            QVERIFY(std::abs(a[k] - expected[k]) < 1e-12);
        // β = 0: the outcome's advantage on every token (GRPO as before).
        for (double v : tokenAdvantages(0.5, {1.0, -1.0, s2}, steps, 0.0))
            QCOMPARE(v, 0.5);
        // A step without a process advantage (a misaligned row: steps −1) keeps A_out.
        for (double v : tokenAdvantages(-0.25, {}, std::vector<int>(3, -1), 0.3))
            QCOMPARE(v, -0.25);
    }

    void stepRewardAndFormat()
    {
        // Eq. 5: σ(R) + ν1·I; σ(0) = 0.5, σ(ln 3) = 0.75.
        QVERIFY(std::abs(stepReward(0.0, true, true, 0.2) - 0.7) < 1e-12);
        QVERIFY(std::abs(stepReward(std::log(3.0), false, true, 0.2) - 0.75) < 1e-12);
        QVERIFY(std::abs(stepReward(-1.5, true, false, 0.5) - (-1.0)) < 1e-12);
        // I_step, through the multi-hop task's steps (task::Steps), as GRPO reads it.
        const rwb::task::MultihopTask task;
        const rwb::task::Steps *steps = task.steps();
        QVERIFY(steps);
        QCOMPARE(steps->stepEnd(), std::string_view("</subanswer>"));
        const auto stepFormatOk = [&](std::string_view block) { return steps->stepWellFormed(block); };
        QVERIFY(stepFormatOk("<step>a</step><subquery>b</subquery><retrieval>c</retrieval><subanswer>d</subanswer>"));
        QVERIFY(stepFormatOk("\n<step>done</step><answer>X</answer>"));
        QVERIFY(!stepFormatOk("<step>a</step><subquery>b</subquery><retrieval>c</retrieval>")); // no sub-answer
        QVERIFY(!stepFormatOk("<step>a</step><subquery>b</subquery><retrieval>c</retrieval><subanswer>d</subanswer>"
                              "<step>e</step><answer>X</answer>")); // two steps in one
        QVERIFY(!stepFormatOk("so <step>a</step><answer>X</answer>")); // text outside the tags
    }
};

QTEST_APPLESS_MAIN(TestProcessAdvantages)
#include "tst_processadvantages.moc"
