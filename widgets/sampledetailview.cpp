#include "sampledetailview.h"

#include "data/extractionrecord.h"
#include "rewardhtml.h"
#include "rewardtext.h"

#include <QEvent>
#include <QTextBrowser>
#include <QVBoxLayout>

namespace {

QString esc(const QString &s)
{
    return RewardHtml::escape(s);
}

// Highlight colours (readable on light backgrounds; the browser keeps a white page).
const char *const kCommonColour = RewardHtml::kCommonColour; // common substring
const char *const kAnswerColour = "#b8d8ff";  // the answer in the e-mail
const char *const kGoldColour = "#bfe8c0";    // the gold in the e-mail
const char *const kMarkerColour = "#f4c2c2";  // a removed marker

// Every occurrence of each needle in `text` marked with its colour (first needle wins on overlap).
QString markOccurrences(const QString &text, const QList<QPair<QString, const char *>> &needles)
{
    QVector<const char *> colour(text.size(), nullptr);
    for (const auto &[needle, c] : needles) {
        if (needle.isEmpty())
            continue;
        for (qsizetype pos = text.indexOf(needle); pos >= 0; pos = text.indexOf(needle, pos + needle.size()))
            for (qsizetype i = pos; i < pos + needle.size(); ++i)
                if (!colour[i])
                    colour[i] = c;
    }
    QString out;
    const char *current = nullptr;
    QString run;
    auto flush = [&] {
        if (run.isEmpty())
            return;
        if (current)
            out += QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(current), esc(run));
        else
            out += esc(run);
        run.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (colour[i] != current) {
            flush();
            current = colour[i];
        }
        run += text[i];
    }
    flush();
    return out;
}

QString list(const std::vector<std::string> &items)
{
    if (items.empty())
        return QStringLiteral("—");
    QStringList s;
    for (const auto &i : items)
        s << QStringLiteral("<span style=\"background:%1\">%2</span>")
                 .arg(QLatin1String(kMarkerColour), esc(QString::fromStdString(i)));
    return s.join(QStringLiteral(" "));
}

} // namespace

SampleDetailView::SampleDetailView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("sampleDetail"));
    m_browser->setOpenLinks(false);
    layout->addWidget(m_browser);
    clear();
}

void SampleDetailView::showSample(const Content &content)
{
    m_last = content;
    m_hasContent = true;
    m_browser->setHtml(render(content));
}

void SampleDetailView::clear()
{
    m_hasContent = false;
    m_browser->setHtml(QStringLiteral("<p style=\"color:gray\">%1</p>")
                           .arg(tr("Select a sample to see why each reward component gave what it gave.")));
}

QString SampleDetailView::html() const
{
    return m_browser->toHtml();
}

void SampleDetailView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (m_hasContent)
            m_browser->setHtml(render(m_last));
        else
            clear();
    }
    QWidget::changeEvent(event);
}

QString SampleDetailView::render(const Content &c) const
{
    const rwb::data::ExtractionRecord &r = c.record;
    QString h;
    h += QStringLiteral("<h3>%1</h3>").arg(esc(QString::fromStdString(r.id)) +
                                           (r.kind.empty() ? QString() : QStringLiteral(" · ") + esc(QString::fromStdString(r.kind))));

    // Scores.
    QVector<RewardHtml::ComponentRow> rows;
    for (size_t i = 0; i < c.explanations.size(); ++i) {
        const auto &e = c.explanations[i];
        rows.append({QString::fromStdString(e.reward), e.value, c.weights.value(static_cast<int>(i)),
                     RewardText::explanation(e)});
    }
    h += RewardHtml::componentTable(rows, c.total);

    // Answer against gold, per comparison.
    for (const auto &e : c.explanations) {
        if (e.reward == "partial" || e.reward == "marker") {
            h += QStringLiteral("<h4>%1</h4>").arg(e.reward == "partial" ? tr("Normalized answer and gold")
                                                                         : tr("After removing legal-entity markers"));
            h += QStringLiteral("<table cellpadding=2><tr><td>%1</td><td><tt>%2</tt></td></tr><tr><td>%3</td><td><tt>%4</tt></td></tr>")
                     .arg(tr("Answer"), RewardHtml::highlightSpan(e.answer, e.answerSpan, kCommonColour), tr("Gold"),
                          RewardHtml::highlightSpan(e.gold, e.goldSpan, kCommonColour));
            if (e.reward == "marker")
                h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr><tr><td>%3</td><td>%4</td></tr>")
                         .arg(tr("Removed from the answer"), list(e.markersRemovedFromAnswer), tr("Removed from the gold"),
                              list(e.markersRemovedFromGold));
            h += QStringLiteral("</table>");
        } else if (e.reward == "domain" && !e.candidates.empty()) {
            h += QStringLiteral("<h4>%1</h4>").arg(tr("Romanized candidates against the domain \"%1\"").arg(esc(QString::fromStdString(e.domain))));
            h += QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\"><tr><th>%1</th><th>%2</th><th>%3</th></tr>")
                     .arg(tr("Candidate"), tr("Romaji"), tr("Match"));
            for (const auto &cand : e.candidates)
                h += QStringLiteral("<tr><td>%1</td><td><tt>%2</tt></td><td align=right>%3</td></tr>")
                         .arg(esc(QString::fromStdString(cand.name)), RewardHtml::highlightSpan(cand.romaji, cand.romajiSpan, kCommonColour),
                              QString::number(cand.value, 'f', 3));
            h += QStringLiteral("</table>");
        }
    }

    // The completion and the e-mail.
    h += QStringLiteral("<h4>%1</h4><p><tt>%2</tt></p>").arg(tr("Completion"), esc(QString::fromStdString(r.completion)));
    if (c.thinking)
        h += QStringLiteral("<p>%1 <tt>%2</tt></p>").arg(tr("Extracted answer:"), c.answer.isEmpty() ? QStringLiteral("∅") : esc(c.answer));
    const QString gold = QString::fromStdString(r.gold);
    const QList<QPair<QString, const char *>> needles{{gold, kGoldColour}, {c.answer, kAnswerColour}};
    h += QStringLiteral("<h4>%1</h4>").arg(tr("E-mail"));
    h += QStringLiteral("<p><span style=\"background:%1\">%2</span> <span style=\"background:%3\">%4</span></p>")
             .arg(QLatin1String(kGoldColour), tr("gold"), QLatin1String(kAnswerColour), tr("answer"));
    h += QStringLiteral("<p><b>%1</b> %2</p>").arg(tr("From:"), markOccurrences(QString::fromStdString(r.senderEmail), needles));
    h += QStringLiteral("<p>%1</p>").arg(markOccurrences(QString::fromStdString(r.emailText), needles));
    return h;
}
