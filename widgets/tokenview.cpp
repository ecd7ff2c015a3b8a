#include "tokenview.h"
#include "runsession.h"
#include "rewardvalue.h"

#include "colourscale.h"
#include "store/runstore.h"
#include "text/unicodeform.h"
#include "tokenizer/tokenizer.h"

#include <QComboBox>
#include <QDir>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPainter>
#include <QPainterPath>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QToolTip>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

namespace rwb::widgets {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// The smallest half-range of the diverging scales, so that noise does not look saturated:
// advantages in units of the group's std; log ratios at PPO's usual ε = 0.2.
constexpr double kMinAdvantageRange = 1.0;
const double kMinLogRatioRange = std::log(1.2);
// Chip geometry, in pixels.
constexpr int kChipPad = 3;
constexpr int kChipGap = 2;
constexpr int kPartialChipWidth = 6;

// The length of the longest prefix of `bytes` that does not end inside a character:
// a trailing lead byte followed by fewer continuation bytes than it announces is left
// out (the next token may finish it). Anything else, ill-formed or not, is included
// (the repair turns it into U+FFFD).
size_t completePrefix(const std::string &bytes)
{
    const size_t n = bytes.size();
    for (size_t back = 1; back <= std::min<size_t>(3, n); ++back) {
        const auto c = static_cast<unsigned char>(bytes[n - back]);
        if ((c & 0xC0) == 0x80)
            continue; // a continuation byte: look further back for its lead
        const size_t need = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xC2 && c <= 0xDF ? 2 : 1;
        return need > back ? n - back : n;
    }
    return n;
}

QString signedNumber(double v, int decimals)
{
    return (v >= 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'f', decimals);
}

} // namespace

// The legend: the colour scale as a bar with its two ends (and the middle) labelled.
class ColourLegend : public QWidget {
public:
    explicit ColourLegend(QWidget *parent) : QWidget(parent) { setMinimumSize(220, 34); }
    bool diverging = true;
    QString lowText, midText, highText;

    QSize sizeHint() const override { return {260, 34}; }

protected:
    void paintEvent(QPaintEvent *) override
    {
        QPainter p(this);
        const QRect bar(4, 2, width() - 8, 12);
        QLinearGradient g(bar.topLeft(), bar.topRight());
        for (int k = 0; k <= 10; ++k) {
            const double t = k / 10.0;
            g.setColorAt(t, diverging ? divergingColour(2.0 * t - 1.0) : sequentialColour(t));
        }
        p.fillRect(bar, g);
        p.setPen(palette().color(QPalette::Mid));
        p.drawRect(bar.adjusted(0, 0, -1, -1));
        p.setPen(palette().color(QPalette::WindowText));
        const QRect labels(bar.left(), bar.bottom() + 2, bar.width(), height() - bar.bottom() - 2);
        p.drawText(labels, Qt::AlignLeft | Qt::AlignTop, lowText);
        p.drawText(labels, Qt::AlignHCenter | Qt::AlignTop, midText);
        p.drawText(labels, Qt::AlignRight | Qt::AlignTop, highText);
    }
};

// The tokens as chips flowing left to right, wrapping at the width and after a newline.
class TokenCanvas : public QWidget {
public:
    explicit TokenCanvas(TokenView *view) : QWidget(view), m_view(view)
    {
        setMouseTracking(true);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::MinimumExpanding);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 1.15); // the text is what one reads here
        setFont(f);
    }
    std::vector<QRect> rects; // token i's chip

    void relayout()
    {
        const QFontMetrics fm(font());
        const int lineHeight = fm.height() + 2 * kChipPad;
        const int right = std::max(80, width() - 4);
        rects.assign(static_cast<size_t>(m_view->tokenCount()), QRect());
        int x = 4, y = 4;
        for (int i = 0; i < m_view->tokenCount(); ++i) {
            const QString shown = displayText(i);
            const int w = shown.isEmpty() ? kPartialChipWidth : fm.horizontalAdvance(shown) + 2 * kChipPad;
            if (x + w > right && x > 4) {
                x = 4;
                y += lineHeight + kChipGap;
            }
            rects[static_cast<size_t>(i)] = QRect(x, y, w, lineHeight);
            x += w + kChipGap;
            // After a token with newlines the next starts on a new line (an empty line for each more).
            const qsizetype breaks = m_view->isSpecial(i) ? 0 : m_view->tokenText(i).count(QLatin1Char('\n'));
            if (breaks > 0) {
                x = 4;
                y += static_cast<int>(breaks) * (lineHeight + kChipGap);
            }
        }
        const int h = y + lineHeight + 8;
        if (minimumHeight() != h)
            setMinimumHeight(h);
        update();
    }

    // The chip's label: white space made visible where it would vanish.
    QString displayText(int i) const
    {
        QString t = m_view->tokenText(i);
        if (m_view->isSpecial(i))
            return t;
        t.replace(QLatin1Char('\n'), QStringLiteral("↵"));
        t.replace(QLatin1Char('\t'), QStringLiteral("→"));
        if (!t.isEmpty() && t.trimmed().isEmpty())
            t.replace(QLatin1Char(' '), QStringLiteral("·"));
        return t;
    }

    int tokenAt(const QPoint &pos) const
    {
        for (size_t i = 0; i < rects.size(); ++i)
            if (rects[i].contains(pos))
                return static_cast<int>(i);
        return -1;
    }

protected:
    void resizeEvent(QResizeEvent *) override { relayout(); }

    bool event(QEvent *e) override
    {
        if (e->type() == QEvent::ToolTip) {
            auto *help = static_cast<QHelpEvent *>(e);
            const int i = tokenAt(help->pos());
            if (i >= 0)
                QToolTip::showText(help->globalPos(), m_view->toolTipAt(i), this, rects[static_cast<size_t>(i)]);
            else
                QToolTip::hideText();
            return true;
        }
        return QWidget::event(e);
    }

    void paintEvent(QPaintEvent *event) override
    {
        QPainter p(this);
        p.setRenderHint(QPainter::Antialiasing);
        p.fillRect(rect(), palette().color(QPalette::Base));
        for (size_t k = 0; k < rects.size(); ++k) {
            const QRect &r = rects[k];
            if (!r.intersects(event->rect()))
                continue;
            const int i = static_cast<int>(k);
            const QColor bg = m_view->colourOf(i);
            QPainterPath path;
            path.addRoundedRect(QRectF(r).adjusted(0.5, 0.5, -0.5, -0.5), 3, 3);
            p.fillPath(path, bg);
            if (m_view->isSpecial(i)) {
                p.setPen(QPen(palette().color(QPalette::Mid), 1, Qt::DashLine));
                p.drawPath(path);
            }
            const QString shown = displayText(i);
            if (shown.isEmpty())
                continue;
            QFont f = font();
            f.setItalic(m_view->isSpecial(i));
            p.setFont(f);
            p.setPen(textColourOn(bg));
            p.drawText(r, Qt::AlignCenter, shown);
        }
    }

private:
    TokenView *m_view;
};

TokenView::TokenView(QWidget *parent)
    : QWidget(parent), m_title(new QLabel(this)), m_colourCombo(new QComboBox(this)), m_legend(new ColourLegend(this)),
      m_note(new QLabel(this)), m_scroll(new QScrollArea(this)), m_canvas(new TokenCanvas(this))
{
    m_title->setObjectName(QStringLiteral("tokenViewTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setWordWrap(true);
    m_note->setTextFormat(Qt::PlainText);
    m_note->setWordWrap(true);
    // A wrapped label asks for a width that grows with its text; let the dock decide.
    m_title->setMinimumWidth(120);
    m_note->setMinimumWidth(120);
    for (int k = 0; k < 3; ++k) // Advantage, Ratio, Entropy: named by retranslate()
        m_colourCombo->addItem(QString());
    m_colourLabel = new QLabel(this);
    m_colourLabel->setBuddy(m_colourCombo);
    retranslate();

    // The colour key on a row of its own, so that the view fits a narrow dock.
    auto *top = new QHBoxLayout;
    top->addWidget(m_colourLabel);
    top->addWidget(m_colourCombo);
    top->addStretch(1);
    auto *key = new QHBoxLayout;
    key->addWidget(m_legend);
    key->addStretch(1);

    m_scroll->setWidget(m_canvas);
    m_scroll->setWidgetResizable(true);
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addLayout(top);
    layout->addLayout(key);
    layout->addWidget(m_note);
    layout->addWidget(m_scroll, 1);

    connect(m_colourCombo, &QComboBox::currentIndexChanged, this,
            [this](int index) { setColourBy(static_cast<ColourBy>(index)); });
    clear();
}

TokenView::~TokenView() = default;

void TokenView::retranslate()
{
    m_colourCombo->setItemText(static_cast<int>(ColourBy::Advantage), tr("Advantage"));
    m_colourCombo->setItemText(static_cast<int>(ColourBy::Ratio), tr("Ratio to the old policy"));
    m_colourCombo->setItemText(static_cast<int>(ColourBy::Entropy), tr("Entropy"));
    m_colourCombo->setToolTip(tr("What the token colours show"));
    m_colourLabel->setText(tr("Colour by"));
}

void TokenView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        retranslate();
        if (m_titleText)
            m_title->setText(m_titleText());
        refresh(); // the legend's note
    }
    QWidget::changeEvent(event);
}

bool TokenView::showRollout(const RunSession &session, qint64 rolloutId, QString *error)
{
    const QString storePath = session.storePath();
    auto fail = [&](const QString &message) {
        clear();
        m_titleText = [message] { return message; };
        m_title->setText(message);
        if (error)
            *error = message;
        return false;
    };
    store::StoredRollout row;
    store::RunInfo run;
    try {
        const store::RunStore &store = session.store();
        row = store.rollout(rolloutId);
        run = store.run(row.runId);
    } catch (const std::exception &e) {
        return fail(tr("Cannot read rollout %1: %2").arg(rolloutId).arg(QString::fromUtf8(e.what())));
    }

    // The run's model folder, from its config. Without a tokenizer the tokens show as ids.
    QString noTokenizer; // why ("" when the tokenizer is read)
    QJsonParseError parseError;
    const QJsonDocument config = QJsonDocument::fromJson(QByteArray::fromStdString(run.configJson), &parseError);
    const QString model = config.object().value(QStringLiteral("model")).toString();
    QString dir = model;
    if (QDir::isRelativePath(model) && !QFileInfo(model).isDir())
        dir = QFileInfo(storePath).absoluteDir().filePath(model);
    if (parseError.error != QJsonParseError::NoError || model.isEmpty()) {
        noTokenizer = tr("Run %1 of %2 names no \"model\" folder in its config, so its tokens show as their ids "
                         "(an import records one with rwb import --tokenizer DIR).")
                          .arg(row.runId)
                          .arg(storePath);
    } else if (!QFileInfo(dir).isDir()) {
        noTokenizer = tr("The model folder %1 of run %2 does not exist, so its tokens show as their ids.")
                          .arg(QDir::toNativeSeparators(QFileInfo(dir).absoluteFilePath()))
                          .arg(row.runId);
    } else {
        dir = QFileInfo(dir).canonicalFilePath();
        if (!m_tokenizer || dir != m_tokenizerDir) {
            m_tokenizer.reset();
            m_tokenizerDir.clear();
            try {
                m_tokenizer = tokenizer::loadTokenizer(dir.toStdString());
                m_tokenizerDir = dir;
            } catch (const std::exception &e) {
                noTokenizer = tr("Cannot read the tokenizer of model folder %1 (%2), so the tokens show as their ids.")
                                  .arg(QDir::toNativeSeparators(dir), QString::fromUtf8(e.what()));
            }
        }
    }
    const tokenizer::Tokenizer *tok = noTokenizer.isEmpty() ? m_tokenizer.get() : nullptr;

    const store::Rollout &r = row.rollout;
    const size_t n = r.tokenIds.size();
    std::vector<Token> tokens(n);
    std::string pending; // bytes of a character that a later token finishes
    bool atStart = true;
    int lastText = -1;   // the last token that is not special
    for (size_t i = 0; i < n; ++i) {
        Token &t = tokens[i];
        t.id = r.tokenIds[i];
        t.special = tok && tok->isSpecial(t.id);
        // NaN: the trainer logged none for this token (an imported dump).
        t.hasOld = i < r.logprobsOld.size() && !std::isnan(r.logprobsOld[i]);
        t.hasNew = i < r.logprobsNew.size() && !std::isnan(r.logprobsNew[i]);
        t.hasEntropy = i < r.entropies.size() && !std::isnan(r.entropies[i]);
        t.logprobOld = t.hasOld ? r.logprobsOld[i] : kNaN;
        t.logprobNew = t.hasNew ? r.logprobsNew[i] : kNaN;
        t.entropy = t.hasEntropy ? r.entropies[i] : kNaN;
        t.advantage = r.advantages.size() == n ? r.advantages[i] : r.advantage;
        if (!tok) {
            t.text = QStringLiteral("⟨%1⟩").arg(t.id);
            continue;
        }
        if (t.special) {
            // Not part of the completion's text; a split character goes on after it.
            const std::string marker = tok->decodeBytes({t.id});
            t.bytes = QByteArray::fromStdString(marker);
            t.text = QString::fromStdString(text::validUtf8(marker));
            continue;
        }
        const std::string bytes = tok->decodeBytes({t.id}, /*skipSpecial=*/false, atStart);
        if (!bytes.empty())
            atStart = false;
        t.bytes = QByteArray::fromStdString(bytes);
        pending += bytes;
        const size_t cut = completePrefix(pending);
        t.text = QString::fromStdString(text::validUtf8(std::string_view(pending).substr(0, cut)));
        pending.erase(0, cut);
        lastText = static_cast<int>(i);
    }
    if (!pending.empty() && lastText >= 0) // an unfinished character at the very end
        tokens[static_cast<size_t>(lastText)].text += QString::fromStdString(text::validUtf8(pending));

    m_tokens = std::move(tokens);
    m_sequenceAdvantage = r.advantages.size() != n;
    m_outcomeAdvantage = r.advantage;
    m_stepAdvantages = false;
    // Another trainer's per-token advantages are its own (prime-rl's may differ by node).
    if (!m_sequenceAdvantage && run.kind != "external")
        for (float a : r.advantages)
            m_stepAdvantages = m_stepAdvantages || std::abs(a - r.advantage) > 1e-6;
    m_entropiesStored = !r.entropies.empty();
    m_tokensNote = n == 0 ? tr("No token ids are stored for this rollout (the trainer's dump had none), so there are "
                               "no tokens to show.")
                          : noTokenizer;
    m_titleText = [rolloutId, runId = row.runId, step = row.step, group = r.groupIndex, sample = r.sampleIndex,
                   reward = RewardValue::format(r.reward, 3), advantage = signedNumber(r.advantage, 3),
                   count = static_cast<int>(n)] {
        return tr("Rollout %1 · run %2, step %3, group %4, sample %5 · reward %6, advantage %7 · %n token(s)", nullptr,
                  count)
            .arg(rolloutId)
            .arg(runId)
            .arg(step)
            .arg(group)
            .arg(sample)
            .arg(reward)
            .arg(advantage);
    };
    m_title->setText(m_titleText());
    refresh();
    return true;
}

void TokenView::setColourBy(ColourBy by)
{
    m_colourBy = by;
    if (m_colourCombo->currentIndex() != static_cast<int>(by)) {
        const QSignalBlocker block(m_colourCombo);
        m_colourCombo->setCurrentIndex(static_cast<int>(by));
    }
    refresh();
}

void TokenView::clear()
{
    m_tokens.clear();
    m_sequenceAdvantage = false;
    m_stepAdvantages = false;
    m_entropiesStored = false;
    m_tokensNote.clear();
    m_titleText = [] { return tr("No rollout shown. Click a sample to see its tokens."); };
    m_title->setText(m_titleText());
    refresh();
}

int TokenView::tokenCount() const { return static_cast<int>(m_tokens.size()); }

QString TokenView::tokenText(int i) const
{
    return i >= 0 && i < tokenCount() ? m_tokens[static_cast<size_t>(i)].text : QString();
}

int TokenView::tokenId(int i) const { return i >= 0 && i < tokenCount() ? m_tokens[static_cast<size_t>(i)].id : -1; }

bool TokenView::isSpecial(int i) const { return i >= 0 && i < tokenCount() && m_tokens[static_cast<size_t>(i)].special; }

double TokenView::tokenValue(int i) const
{
    if (i < 0 || i >= tokenCount())
        return kNaN;
    const Token &t = m_tokens[static_cast<size_t>(i)];
    switch (m_colourBy) {
    case ColourBy::Advantage:
        return t.advantage;
    case ColourBy::Ratio:
        return t.hasOld && t.hasNew ? std::exp(t.logprobNew - t.logprobOld) : kNaN;
    case ColourBy::Entropy:
        return t.hasEntropy ? t.entropy : kNaN;
    }
    return kNaN;
}

QColor TokenView::colourOf(int i) const
{
    const double v = tokenValue(i);
    switch (m_colourBy) {
    case ColourBy::Advantage:
        return divergingColour(v / m_high);
    case ColourBy::Ratio:
        return divergingColour(std::log(v) / std::log(m_high));
    case ColourBy::Entropy:
        return sequentialColour(v / m_high);
    }
    return {};
}

std::pair<double, double> TokenView::legendRange() const { return {m_low, m_high}; }

QString TokenView::noteText() const { return m_note->text(); }

QString TokenView::toolTipAt(int i) const
{
    if (i < 0 || i >= tokenCount())
        return {};
    const Token &t = m_tokens[static_cast<size_t>(i)];
    QStringList lines;
    QString shown = t.text;
    shown.replace(QLatin1Char('\n'), QStringLiteral("\\n")).replace(QLatin1Char('\t'), QStringLiteral("\\t"));
    lines << tr("Token %1 of %2: “%3” (id %4)").arg(i + 1).arg(tokenCount()).arg(shown).arg(t.id);
    if (t.special)
        lines << tr("A special token: not part of the completion's text.");
    if (t.text.isEmpty() || (!t.bytes.isEmpty() && t.text.toUtf8() != t.bytes)) {
        QStringList hex;
        for (char c : t.bytes)
            hex << QStringLiteral("%1").arg(static_cast<unsigned char>(c), 2, 16, QLatin1Char('0')).toUpper();
        if (t.text.isEmpty())
            lines << tr("Bytes %1: the start of a character that a later token finishes.").arg(hex.join(QLatin1Char(' ')));
        else if (!t.special)
            lines << tr("Bytes %1 (with the bytes of earlier tokens they make “%2”).")
                         .arg(hex.join(QLatin1Char(' ')), shown);
    }
    auto lp = [](bool has, double v) { return has ? QString::number(v, 'f', 4) : QStringLiteral("—"); };
    lines << tr("log-prob old %1, new %2").arg(lp(t.hasOld, t.logprobOld), lp(t.hasNew, t.logprobNew));
    if (t.hasOld && t.hasNew)
        lines << tr("ratio %1 (log ratio %2)")
                     .arg(std::exp(t.logprobNew - t.logprobOld), 0, 'f', 4)
                     .arg(signedNumber(t.logprobNew - t.logprobOld, 4));
    else
        lines << tr("ratio: not stored (no log-probs of the update)");
    if (m_stepAdvantages)
        lines << tr("advantage %1: the outcome's %2 and %3 from its step's process reward (β·A_proc)")
                     .arg(signedNumber(t.advantage, 4), signedNumber(m_outcomeAdvantage, 4),
                          signedNumber(t.advantage - m_outcomeAdvantage, 4));
    else
        lines << (m_sequenceAdvantage ? tr("advantage %1 (the sequence's advantage: the same for every token)")
                                      : tr("advantage %1"))
                     .arg(signedNumber(t.advantage, 4));
    lines << (t.hasEntropy ? tr("entropy %1 nats").arg(t.entropy, 0, 'f', 4)
                           : tr("entropy: not stored (written before entropies were kept, or not trained on)"));
    return lines.join(QLatin1Char('\n'));
}

void TokenView::refresh()
{
    // The scale: symmetric around 0 (advantage, log ratio) or from 0 (entropy).
    double maxAbs = 0.0;
    bool any = false;
    for (int i = 0; i < tokenCount(); ++i) {
        const double v = tokenValue(i);
        if (std::isnan(v))
            continue;
        any = true;
        maxAbs = std::max(maxAbs, m_colourBy == ColourBy::Ratio ? std::abs(std::log(v)) : std::abs(v));
    }
    QString note;
    switch (m_colourBy) {
    case ColourBy::Advantage:
        m_high = std::max(maxAbs, kMinAdvantageRange);
        m_low = -m_high;
        m_legend->diverging = true;
        m_legend->lowText = QString::number(m_low, 'f', 2);
        m_legend->midText = QStringLiteral("0");
        m_legend->highText = signedNumber(m_high, 2);
        note = m_sequenceAdvantage ? tr("Advantage: GRPO's advantage is the sequence's, the same for every token.")
               : m_stepAdvantages
                   ? tr("Advantage of each token: the outcome's plus β × its step's process advantage (ProRAG's "
                        "dual-granularity GRPO), so it changes from step to step.")
                   : tr("Advantage of each token, as the loss used it.");
        break;
    case ColourBy::Ratio: {
        const double half = std::max(maxAbs, kMinLogRatioRange);
        m_high = std::exp(half);
        m_low = std::exp(-half);
        m_legend->diverging = true;
        m_legend->lowText = QString::number(m_low, 'f', 3);
        m_legend->midText = QStringLiteral("1");
        m_legend->highText = QString::number(m_high, 'f', 3);
        note = any ? tr("Ratio π_new / π_old = exp(log-prob new − log-prob old), coloured on a log scale; "
                        "outside [0.8, 1.2] PPO's clip usually acts.")
                   : tr("Ratio: not stored for this rollout (its group was not trained on).");
        break;
    }
    case ColourBy::Entropy:
        m_high = std::max(maxAbs, 1e-6);
        m_low = 0.0;
        m_legend->diverging = false;
        m_legend->lowText = QStringLiteral("0");
        m_legend->midText.clear();
        m_legend->highText = tr("%1 nats").arg(m_high, 0, 'f', 2);
        note = any ? tr("Entropy of the policy at each token, in nats, from the update's forward pass.")
                   : tr("Entropies not stored for this rollout (written before they were kept, or not trained on).");
        break;
    }
    if (tokenCount() == 0)
        note.clear();
    if (!m_tokensNote.isEmpty())
        note = note.isEmpty() ? m_tokensNote : m_tokensNote + QLatin1Char('\n') + note;
    m_legend->setVisible(any);
    m_legend->update();
    m_note->setText(note);
    m_canvas->relayout();
}

} // namespace rwb::widgets
