#pragma once

#include <QString>
#include <QWidget>
#include <functional>
#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QScrollArea;

namespace rwb::tokenizer {
class Tokenizer;
}

namespace rwb::widgets {

class RunSession;

class TokenCanvas;
class ColourLegend;

// One completion as a flow of token chips coloured by a per-token quantity: the
// advantage (diverging; GRPO's advantage is the sequence's, the same on every token),
// the log-prob ratio to the old policy (diverging on log ratio, the ratio shown), or the
// policy's entropy (sequential). A legend gives the range; hovering a token shows its
// text, id, log-probs old / new, ratio, advantage and entropy.
//
// Tokens are decoded one by one with the tokenizer of the run's model; a multi-byte
// character split over tokens is shown whole on the token that completes it (the tokens
// before show as thin chips, their bytes in the tooltip), so token texts concatenate to
// the completion. A run without a tokenizer it can read (an import without --tokenizer,
// a model folder moved away) shows its tokens by id, "⟨id⟩", with a note saying why; a
// log-prob stored as NaN counts as not stored. GUI thread only; loading a tokenizer (a
// real model's tokenizer.json takes a fraction of a second) happens once per model folder.
class TokenView : public QWidget {
    Q_OBJECT
public:
    enum class ColourBy { Advantage, Ratio, Entropy };

    explicit TokenView(QWidget *parent = nullptr);
    ~TokenView() override;

    // Reads the rollout (with token arrays) through the run session and decodes its tokens with the
    // tokenizer of the run's model (the run's config JSON names "model": a folder with
    // tokenizer.json or tokenizer.model; a relative path is tried against the working
    // folder, then against the store file's folder). Without a config "model", or with a
    // folder that is missing or holds no readable tokenizer, the tokens show as their ids
    // and noteText() names the config field or folder. When the rollout cannot be read,
    // returns false, clears the view and puts in `error` what failed, naming the store
    // and rollout.
    bool showRollout(const RunSession &session, qint64 rolloutId, QString *error = nullptr);
    void setColourBy(ColourBy by);
    ColourBy colourBy() const { return m_colourBy; }
    void clear();

    int tokenCount() const;
    // The decoded piece of token i ("" for a token whose bytes end in an unfinished
    // character; a special token's marker, e.g. "<|im_end|>").
    QString tokenText(int i) const;
    int tokenId(int i) const;
    // Special tokens (end of sequence, chat markers) are not part of the completion's text.
    bool isSpecial(int i) const;
    // The value coloured: the advantage, the ratio exp(new − old), or the entropy (nats);
    // NaN when the rollout lacks it.
    double tokenValue(int i) const;
    // What hovering token i shows.
    QString toolTipAt(int i) const;
    // The legend's range as shown: [low, high] of the colour scale (the ratio's in ratio units).
    std::pair<double, double> legendRange() const;
    // The line under the legend (what is coloured, notes such as "entropies not stored").
    QString noteText() const;

protected:
    void changeEvent(QEvent *event) override; // LanguageChange: retranslate()

private:
    void retranslate();
    struct Token {
        int id = 0;
        QString text;
        QByteArray bytes; // the token's own bytes (may be part of a character)
        bool special = false;
        double logprobOld = 0.0, logprobNew = 0.0, advantage = 0.0, entropy = 0.0;
        bool hasOld = false, hasNew = false, hasEntropy = false;
    };
    friend class TokenCanvas;

    QColor colourOf(int i) const;
    void refresh();

    std::vector<Token> m_tokens;
    bool m_sequenceAdvantage = false; // the store had no per-token advantages
    double m_outcomeAdvantage = 0.0;  // the sequence's (the outcome's) advantage
    bool m_stepAdvantages = false;    // per token and not all the sequence's: dual-granularity GRPO
    bool m_entropiesStored = false;
    QString m_tokensNote; // why the tokens show as ids, or that the rollout has none ("" otherwise)
    ColourBy m_colourBy = ColourBy::Advantage;
    double m_low = 0.0, m_high = 0.0; // the current scale

    QString m_tokenizerDir; // the folder m_tokenizer was read from
    std::unique_ptr<rwb::tokenizer::Tokenizer> m_tokenizer;

    QLabel *m_title = nullptr;
    std::function<QString()> m_titleText; // the title in the language of the moment
    QLabel *m_colourLabel = nullptr;
    QComboBox *m_colourCombo = nullptr;
    ColourLegend *m_legend = nullptr;
    QLabel *m_note = nullptr;
    QScrollArea *m_scroll = nullptr;
    TokenCanvas *m_canvas = nullptr;
};

} // namespace rwb::widgets
