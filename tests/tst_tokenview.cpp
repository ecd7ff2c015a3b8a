// widgets/TokenView: a completion's tokens decoded one by one with the run's tokenizer
// (Japanese split over byte tokens included: the pieces concatenate to the completion),
// the value of each colouring mode against hand-computed figures, NaN and "not stored"
// for what a rollout lacks, and tokens shown by id (with a note naming the missing model
// folder or config field) when there is no tokenizer to decode them.
//
// The tokenizer is trained here: byte-level BPE on "ab ab ab abc" with three merges
// (ab, Ġab, Ġabc) and the default added tokens, so every kanji stays three byte tokens.
#include "store/runstore.h"
#include "runsessions.h"
#include "tokenizer/bpetrainer.h"
#include "tokenizer/bytelevelbpetokenizer.h"
#include "tokenview.h"

#include <QComboBox>
#include <QLabel>
#include <QTemporaryDir>
#include <QtTest>
#include <cmath>
#include <limits>

using namespace rwb;
using rwb::widgets::TokenView;

namespace {
const std::string kCompletion = "<answer>株式会社ab abc</answer>";
constexpr double kTol = 1e-6;
} // namespace

class TestTokenView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void piecesConcatenateToTheCompletion();
    void advantageValues();
    void ratioValues();
    void entropyValues();
    void missingValuesAreNaN();
    void errorsNameWhatFailed();
    void idsWithoutATokenizer();
    void noneRewardInTheTitle();

private:
    QTemporaryDir m_dir;
    QString m_path;
    std::vector<int32_t> m_ids;
    qint64 m_full = 0, m_bare = 0, m_missingModel = 0, m_noModel = 0, m_none = 0, m_imported = 0, m_noTokens = 0;
};

void TestTokenView::initTestCase()
{
    tokenizer::BpeTrainerOptions o;
    o.vocabSize = 256 + 3 + 8; // bytes, three merges, the eight default added tokens
    o.minPairCount = 1;
    tokenizer::BpeTrainer trainer(o);
    trainer.addText("ab ab ab abc");
    QVERIFY(trainer.train());
    trainer.save((m_dir.path() + "/tok").toStdString());
    const auto tok = trainer.tokenizer();
    // <answer>, 株式会社 as 12 bytes, "ab", " abc", </answer>, then the end marker.
    m_ids = tok->encode(kCompletion);
    m_ids.push_back(*tok->tokenToId("<|im_end|>"));
    QCOMPARE(m_ids.size(), size_t(17));
    QCOMPARE(m_ids[0], *tok->tokenToId("<answer>"));
    QCOMPARE(m_ids[1], 0xE6); // 株 = E6 A0 AA: byte tokens are the bytes' ids
    QCOMPARE(m_ids[13], 256);  // "ab"
    QCOMPARE(m_ids[14], 258);  // "Ġabc"

    m_path = m_dir.path() + "/runs.sqlite";
    store::RunStore writer(m_path.toStdString());
    // The model folder relative to the store's folder, as the demo writes it.
    const int64_t run = writer.beginRun("t", store::RunKind::Grpo, R"({"model": "tok"})", "company_extraction");
    store::Rollout full;
    full.promptId = "p";
    full.completion = kCompletion;
    full.tokenIds = m_ids;
    for (size_t i = 0; i < m_ids.size(); ++i) {
        const float old = -0.1f * static_cast<float>(i + 1);
        full.logprobsOld.push_back(old);
        full.logprobsNew.push_back(old + 0.05f * static_cast<float>(static_cast<int>(i % 3) - 1));
        full.entropies.push_back(0.5f * static_cast<float>(i));
    }
    full.advantage = 0.75;
    full.reward = 1.0;
    full.completionTokens = static_cast<int>(m_ids.size());
    store::Rollout bare = full; // not trained on: no new log-probs, no entropies; per-token advantages
    bare.sampleIndex = 1;
    bare.logprobsNew.clear();
    bare.entropies.clear();
    for (size_t i = 0; i < m_ids.size(); ++i)
        bare.advantages.push_back(0.1f * static_cast<float>(i) - 0.8f);
    store::Rollout none = full; // its judge gave no verdict: reward None, advantage 0
    none.sampleIndex = 2;
    none.reward = std::numeric_limits<double>::quiet_NaN();
    none.advantage = 0.0;
    writer.writeStep(run, 1, {}, {full, bare, none}, {{"p", "prompt", "", "{}"}});
    m_full = writer.stepRollouts(run, 1).at(0).id;
    m_bare = writer.stepRollouts(run, 1).at(1).id;
    m_none = writer.stepRollouts(run, 1).at(2).id;

    const std::string missing = (m_dir.path() + "/missing-model").toStdString();
    const int64_t run2 = writer.beginRun("m", store::RunKind::Grpo, R"({"model": ")" + missing + R"("})", "company_extraction");
    writer.writeStep(run2, 1, {}, {full}, {{"p", "prompt", "", "{}"}});
    m_missingModel = writer.stepRollouts(run2, 1).at(0).id;
    const int64_t run3 = writer.beginRun("n", store::RunKind::Grpo, "{}", "company_extraction");
    writer.writeStep(run3, 1, {}, {full}, {{"p", "prompt", "", "{}"}});
    m_noModel = writer.stepRollouts(run3, 1).at(0).id;
    // An import without a tokenizer: ids 7, 8, 9; a log-prob the trainer did not log (NaN);
    // per-token advantages that differ from the sequence's; and a rollout without tokens.
    const int64_t run4 = writer.beginRun("imported", store::RunKind::External, R"({"imported": {"format": "prime-rl"}})", "");
    store::Rollout imported;
    imported.promptId = "p";
    imported.completion = "abc";
    imported.tokenIds = {7, 8, 9};
    imported.logprobsOld = {-0.5f, std::numeric_limits<float>::quiet_NaN(), -0.25f};
    imported.logprobsNew = {-0.5f, -1.0f, -0.5f};
    imported.advantages = {0.4f, 0.4f, 0.0f};
    imported.advantage = 0.4;
    imported.reward = 1.0;
    store::Rollout noTokens = imported;
    noTokens.sampleIndex = 1;
    noTokens.tokenIds.clear();
    noTokens.logprobsOld.clear();
    noTokens.logprobsNew.clear();
    noTokens.advantages.clear();
    writer.writeStep(run4, 1, {}, {imported, noTokens}, {{"p", "prompt", "", "{}"}});
    m_imported = writer.stepRollouts(run4, 1).at(0).id;
    m_noTokens = writer.stepRollouts(run4, 1).at(1).id;
}

void TestTokenView::piecesConcatenateToTheCompletion()
{
    TokenView view;
    QString error;
    QVERIFY2(rwbtest::showRollout(view, m_path, m_full, &error), qPrintable(error));
    QCOMPARE(view.tokenCount(), 17);
    QString joined;
    for (int i = 0; i < view.tokenCount(); ++i) {
        QCOMPARE(view.tokenId(i), m_ids[static_cast<size_t>(i)]);
        if (!view.isSpecial(i))
            joined += view.tokenText(i);
    }
    QCOMPARE(joined, QString::fromStdString(kCompletion));
    // Each kanji shows whole on the token that finishes it; the two before are empty.
    QCOMPARE(view.tokenText(0), QString("<answer>"));
    QCOMPARE(view.tokenText(1), QString());
    QCOMPARE(view.tokenText(2), QString());
    QCOMPARE(view.tokenText(3), QString("株"));
    QCOMPARE(view.tokenText(6), QString("式"));
    QCOMPARE(view.tokenText(9), QString("会"));
    QCOMPARE(view.tokenText(12), QString("社"));
    QCOMPARE(view.tokenText(13), QString("ab"));
    QCOMPARE(view.tokenText(14), QString(" abc"));
    QCOMPARE(view.tokenText(15), QString("</answer>"));
    QCOMPARE(view.tokenText(16), QString("<|im_end|>"));
    QVERIFY(view.isSpecial(16));
    QVERIFY(!view.isSpecial(0)); // <answer> is text the model writes
    // The partial token's tooltip gives its byte: 株's first is E6.
    QVERIFY2(view.toolTipAt(1).contains("E6"), qPrintable(view.toolTipAt(1)));
    QVERIFY2(view.toolTipAt(3).contains("株") && view.toolTipAt(3).contains("AA"), qPrintable(view.toolTipAt(3)));
}

void TestTokenView::advantageValues()
{
    TokenView view;
    QVERIFY(rwbtest::showRollout(view, m_path, m_full));
    QCOMPARE(view.colourBy(), TokenView::ColourBy::Advantage); // the default
    // No per-token advantages stored: the sequence's 0.75 on every token.
    for (int i = 0; i < view.tokenCount(); ++i)
        QCOMPARE(view.tokenValue(i), 0.75);
    QVERIFY2(view.toolTipAt(5).contains("+0.7500") && view.toolTipAt(5).contains("the same for every token"),
             qPrintable(view.toolTipAt(5)));
    // Scale ±max(|0.75|, 1) = ±1.
    QCOMPARE(view.legendRange(), std::make_pair(-1.0, 1.0));
    // Per-token advantages: 0.1 · i − 0.8 (float32 in the store).
    QVERIFY(rwbtest::showRollout(view, m_path, m_bare));
    for (int i = 0; i < view.tokenCount(); ++i)
        QVERIFY(std::abs(view.tokenValue(i) - (0.1 * i - 0.8)) < kTol);
    QVERIFY(!view.toolTipAt(0).contains("the same for every token"));
    // Largest |value| 0.8 at i = 0 and i = 16: scale ±1 (the floor).
    QCOMPARE(view.legendRange().second, 1.0);
}

void TestTokenView::ratioValues()
{
    TokenView view;
    QVERIFY(rwbtest::showRollout(view, m_path, m_full));
    view.setColourBy(TokenView::ColourBy::Ratio);
    QCOMPARE(view.findChild<QComboBox *>()->currentIndex(), 1);
    // new − old = 0.05 · (i mod 3 − 1): ratios e^−0.05, 1, e^0.05.
    const double expected[3] = {0.951229424500714, 1.0, 1.051271096376024};
    for (int i = 0; i < view.tokenCount(); ++i)
        QVERIFY2(std::abs(view.tokenValue(i) - expected[i % 3]) < kTol,
                 qPrintable(QString("token %1: %2").arg(i).arg(view.tokenValue(i), 0, 'g', 12)));
    // Token 2: old −0.3, new −0.25; the tooltip shows both and the ratio.
    const QString tip = view.toolTipAt(2);
    QVERIFY2(tip.contains("-0.3000") && tip.contains("-0.2500") && tip.contains("1.0513"), qPrintable(tip));
    // |log ratio| ≤ 0.05 < ln 1.2: the scale is [1/1.2, 1.2].
    QVERIFY(std::abs(view.legendRange().first - 1 / 1.2) < kTol);
    QVERIFY(std::abs(view.legendRange().second - 1.2) < kTol);
    // The combo box is the same switch.
    view.findChild<QComboBox *>()->setCurrentIndex(2);
    QCOMPARE(view.colourBy(), TokenView::ColourBy::Entropy);
}

void TestTokenView::entropyValues()
{
    TokenView view;
    QVERIFY(rwbtest::showRollout(view, m_path, m_full));
    view.setColourBy(TokenView::ColourBy::Entropy);
    for (int i = 0; i < view.tokenCount(); ++i)
        QCOMPARE(view.tokenValue(i), 0.5 * i);
    QCOMPARE(view.legendRange(), std::make_pair(0.0, 8.0)); // 0 … 0.5 · 16
    QVERIFY2(view.toolTipAt(4).contains("entropy 2.0000 nats"), qPrintable(view.toolTipAt(4)));
}

void TestTokenView::missingValuesAreNaN()
{
    TokenView view;
    QVERIFY(rwbtest::showRollout(view, m_path, m_bare));
    view.setColourBy(TokenView::ColourBy::Entropy);
    for (int i = 0; i < view.tokenCount(); ++i)
        QVERIFY(std::isnan(view.tokenValue(i)));
    QVERIFY2(view.toolTipAt(3).contains("entropy: not stored"), qPrintable(view.toolTipAt(3)));
    QVERIFY2(view.noteText().contains("not stored"), qPrintable(view.noteText()));
    view.setColourBy(TokenView::ColourBy::Ratio);
    for (int i = 0; i < view.tokenCount(); ++i)
        QVERIFY(std::isnan(view.tokenValue(i)));
    QVERIFY2(view.toolTipAt(3).contains("ratio: not stored"), qPrintable(view.toolTipAt(3)));
    view.clear();
    QCOMPARE(view.tokenCount(), 0);
    QVERIFY(std::isnan(view.tokenValue(0)));
}

void TestTokenView::errorsNameWhatFailed()
{
    TokenView view;
    QString error;
    // Without a tokenizer the tokens show as ids, and the note names the folder or field.
    const QString missing = m_dir.path() + "/missing-model";
    QVERIFY(rwbtest::showRollout(view, m_path, m_missingModel, &error));
    QVERIFY2(view.noteText().contains(QDir::toNativeSeparators(missing)), qPrintable(view.noteText()));
    QCOMPARE(view.tokenCount(), 17);
    QCOMPARE(view.tokenText(0), QString("⟨%1⟩").arg(m_ids[0]));
    QVERIFY(rwbtest::showRollout(view, m_path, m_noModel, &error));
    QVERIFY2(view.noteText().contains("\"model\""), qPrintable(view.noteText()));
    QVERIFY(!rwbtest::showRollout(view, m_path, 999, &error));
    QVERIFY2(error.contains("999") && error.contains(m_path), qPrintable(error));
    // A folder without a tokenizer: the loader's message, naming the folder.
    QVERIFY(QDir(m_dir.path()).mkpath("missing-model"));
    QVERIFY(rwbtest::showRollout(view, m_path, m_missingModel, &error));
    QVERIFY2(view.noteText().contains("Cannot read the tokenizer") && view.noteText().contains(QDir::toNativeSeparators(missing)),
             qPrintable(view.noteText()));
    QVERIFY(QDir(missing).removeRecursively());
    // A good one after a bad one: decoded, and no note about ids.
    QVERIFY2(rwbtest::showRollout(view, m_path, m_full, &error), qPrintable(error));
    QCOMPARE(view.tokenCount(), 17);
    QCOMPARE(view.tokenText(0), QString("<answer>"));
    QVERIFY2(!view.noteText().contains("their ids"), qPrintable(view.noteText()));
}

void TestTokenView::idsWithoutATokenizer()
{
    TokenView view;
    QString error;
    QVERIFY2(rwbtest::showRollout(view, m_path, m_imported, &error), qPrintable(error));
    QCOMPARE(view.tokenCount(), 3);
    QCOMPARE(view.tokenText(1), QString("⟨8⟩"));
    QCOMPARE(view.tokenId(2), 9);
    QVERIFY(!view.isSpecial(0));
    QVERIFY2(view.noteText().contains("names no \"model\"") && view.noteText().contains("--tokenizer"),
             qPrintable(view.noteText()));
    // Per-token advantages as stored; an imported run's are the trainer's, not step rewards.
    QCOMPARE(view.tokenValue(0), double(0.4f));
    QCOMPARE(view.tokenValue(2), 0.0);
    QVERIFY2(!view.toolTipAt(0).contains("process reward"), qPrintable(view.toolTipAt(0)));
    // Ratio exp(new − old): token 0 exp(0) = 1; token 1's old log-prob is NaN (not logged): none.
    view.setColourBy(TokenView::ColourBy::Ratio);
    QVERIFY(std::abs(view.tokenValue(0) - 1.0) < kTol);
    QVERIFY(std::isnan(view.tokenValue(1)));
    QVERIFY(std::abs(view.tokenValue(2) - std::exp(-0.25)) < kTol);
    QVERIFY2(view.toolTipAt(1).contains("ratio: not stored"), qPrintable(view.toolTipAt(1)));
    // No token ids at all: a note says so.
    QVERIFY(rwbtest::showRollout(view, m_path, m_noTokens, &error));
    QCOMPARE(view.tokenCount(), 0);
    QVERIFY2(view.noteText().contains("No token ids are stored"), qPrintable(view.noteText()));
    view.clear();
    QVERIFY(view.noteText().isEmpty());
}

void TestTokenView::noneRewardInTheTitle()
{
    TokenView view;
    QString error;
    QVERIFY2(rwbtest::showRollout(view, m_path, m_none, &error), qPrintable(error));
    const auto *title = view.findChild<QLabel *>("tokenViewTitle");
    QVERIFY(title);
    QVERIFY2(title->text().contains("reward None, advantage +0.000"), qPrintable(title->text()));
    QVERIFY(rwbtest::showRollout(view, m_path, m_full, &error));
    QVERIFY(title->text().contains("reward 1.000, advantage +0.750"));
}

QTEST_MAIN(TestTokenView)
#include "tst_tokenview.moc"
