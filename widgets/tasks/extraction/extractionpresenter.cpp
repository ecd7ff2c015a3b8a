// What the detail panes show of a company-extraction example (the first paper): the
// answer against the gold, the comparisons behind the rewards, the completion's tags and
// the e-mail with the answer, the gold and the legal-entity markers marked.
#include "tasks/presenters.h"

#include "presenterhtml.h"
#include "taskpresenter.h"

#include "tasks/extraction/emailfailures.h"
#include "tasks/extraction/extraction.h"
#include "tasks/extraction/extractiontask.h"
#include "text/lcs.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <QColor>
#include <QCoreApplication>
#include <QFont>
#include <QStringList>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QTextDocument>

#include <algorithm>
#include <set>

namespace rwb::widgets::tasks {

namespace {

using namespace presenterhtml;

using eval::FailureCategory;
using eval::PredictionSource;

// The failure explorer's highlights: backgrounds for the parties; prediction A underlined
// in red, prediction B overlined and italic, so that overlapping spans (a prediction on the
// gold) show each of them.
const QColor kGoldHighlight(0xc6, 0xef, 0xce);
const QColor kRecipientHighlight(0xc9, 0xdd, 0xfb);
const QColor kThirdPartyHighlight(0xfd, 0xe3, 0xb5);
const QColor kPredictionHighlight(0xc0, 0x39, 0x2b);

QTextCharFormat formatFor(eval::SpanRole role)
{
    QTextCharFormat f;
    switch (role) {
    case eval::SpanRole::Gold:
        f.setBackground(kGoldHighlight);
        break;
    case eval::SpanRole::Recipient:
        f.setBackground(kRecipientHighlight);
        break;
    case eval::SpanRole::ThirdParty:
        f.setBackground(kThirdPartyHighlight);
        break;
    case eval::SpanRole::Prediction:
        f.setUnderlineStyle(QTextCharFormat::SingleUnderline);
        f.setUnderlineColor(kPredictionHighlight);
        f.setForeground(kPredictionHighlight);
        f.setFontWeight(QFont::Bold);
        break;
    case eval::SpanRole::ComparedPrediction:
        f.setFontOverline(true);
        f.setFontItalic(true);
        break;
    }
    return f;
}

// The extraction category of a key (-1 for another key).
int categoryOf(const QString &key)
{
    for (size_t i = 0; i < eval::kFailureCategoryCount; ++i)
        if (key == QLatin1String(eval::categoryKey(static_cast<FailureCategory>(i))))
            return static_cast<int>(i);
    return -1;
}

QString sourceName(PredictionSource s)
{
    switch (s) {
    case PredictionSource::None: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "no company");
    case PredictionSource::Gold: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "overlaps the gold");
    case PredictionSource::Recipient: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "the recipient's company");
    case PredictionSource::ThirdParty: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "a third party's company");
    case PredictionSource::InText: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "elsewhere in the e-mail");
    case PredictionSource::NotInText: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "not in the e-mail");
    }
    return {};
}

class ExtractionPresenter : public TaskPresenter {
public:
    // The paper's best (table 2 *).
    QString defaultPreset() const override { return QStringLiteral(":/presets/table2_star_partial20_marker80.json"); }

    QString outcomeHtml(const task::Example &example, const task::Completion &completion,
                        const std::vector<reward::Explanation> &explanations) const override
    {
        const std::string &answer = completion.answer();
        const std::string gold = example.goldText();
        QString h = QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Answer against gold"));
        h += legendOfPair();
        h += QStringLiteral("<table cellpadding=2>");
        h += pairRows(QCoreApplication::translate("TaskPresenter", "Answer"), QCoreApplication::translate("TaskPresenter", "Gold"), markedPair(answer, gold));
        const std::string na = text::normalize(answer), ng = text::normalize(gold);
        if (na != answer || ng != gold)
            h += pairRows(QCoreApplication::translate("TaskPresenter", "Normalized answer"), QCoreApplication::translate("TaskPresenter", "Normalized gold"), markedPair(na, ng));
        for (const reward::Explanation &e : explanations) {
            if (e.reward != "marker" || (e.markersRemovedFromAnswer.empty() && e.markersRemovedFromGold.empty()))
                continue;
            auto list = [](const std::vector<std::string> &items) {
                QStringList out;
                for (const auto &i : items)
                    out << escape(str(i));
                return out.isEmpty() ? QStringLiteral("—") : out.join(QStringLiteral(" "));
            };
            h += pairRows(QCoreApplication::translate("TaskPresenter", "Answer without markers"), QCoreApplication::translate("TaskPresenter", "Gold without markers"),
                          {RewardHtml::markSpan(e.answer, e.answerSpan, RewardHtml::kSameColour, RewardHtml::kExtraColour),
                           RewardHtml::markSpan(e.gold, e.goldSpan, RewardHtml::kSameColour, RewardHtml::kMissingColour)});
            h += QStringLiteral("<tr><td>%1</td><td>%2 / %3</td></tr>")
                     .arg(QCoreApplication::translate("TaskPresenter", "Markers removed (answer / gold)"), list(e.markersRemovedFromAnswer), list(e.markersRemovedFromGold));
        }
        h += QStringLiteral("</table>");
        return h;
    }

    QString componentDetailHtml(const std::vector<reward::Explanation> &explanations) const override
    {
        auto markers = [](const std::vector<std::string> &items) {
            if (items.empty())
                return QStringLiteral("—");
            QStringList s;
            for (const auto &i : items)
                s << swatch(kMarkerColour, escape(str(i)));
            return s.join(QStringLiteral(" "));
        };
        QString h;
        for (const auto &e : explanations) {
            if (e.reward == "partial" || e.reward == "marker") {
                h += QStringLiteral("<h4>%1</h4>").arg(e.reward == "partial" ? QCoreApplication::translate("TaskPresenter", "Normalized answer and gold")
                                                                             : QCoreApplication::translate("TaskPresenter", "After removing legal-entity markers"));
                h += QStringLiteral("<table cellpadding=2><tr><td>%1</td><td><tt>%2</tt></td></tr><tr><td>%3</td><td><tt>%4</tt></td></tr>")
                         .arg(QCoreApplication::translate("TaskPresenter", "Answer"), RewardHtml::highlightSpan(e.answer, e.answerSpan, RewardHtml::kCommonColour), QCoreApplication::translate("TaskPresenter", "Gold"),
                              RewardHtml::highlightSpan(e.gold, e.goldSpan, RewardHtml::kCommonColour));
                if (e.reward == "marker")
                    h += QStringLiteral("<tr><td>%1</td><td>%2</td></tr><tr><td>%3</td><td>%4</td></tr>")
                             .arg(QCoreApplication::translate("TaskPresenter", "Removed from the answer"), markers(e.markersRemovedFromAnswer), QCoreApplication::translate("TaskPresenter", "Removed from the gold"),
                                  markers(e.markersRemovedFromGold));
                h += QStringLiteral("</table>");
            } else if (e.reward == "domain" && !e.candidates.empty()) {
                h += QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Romanized candidates against the domain \"%1\"").arg(escape(str(e.domain))));
                h += QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\"><tr><th>%1</th><th>%2</th><th>%3</th></tr>")
                         .arg(QCoreApplication::translate("TaskPresenter", "Candidate"), QCoreApplication::translate("TaskPresenter", "Romaji"), QCoreApplication::translate("TaskPresenter", "Match"));
                for (const auto &cand : e.candidates)
                    h += QStringLiteral("<tr><td>%1</td><td><tt>%2</tt></td><td align=right>%3</td></tr>")
                             .arg(escape(str(cand.name)), RewardHtml::highlightSpan(cand.romaji, cand.romajiSpan, RewardHtml::kCommonColour),
                                  QString::number(cand.value, 'f', 3));
                h += QStringLiteral("</table>");
            }
        }
        return h;
    }

    QString completionHtml(const task::Example &, const task::Completion &completion, bool thinking) const override
    {
        const std::string &text = completion.text();
        // Per byte: 0 plain, 1 a thinking-format tag, 2 inside the answer block.
        std::vector<int> kind(text.size(), 0);
        if (thinking) {
            const reward::AnswerBlock block = reward::answerBlock(text, true);
            if (block.found)
                std::fill(kind.begin() + static_cast<std::ptrdiff_t>(block.begin),
                          kind.begin() + static_cast<std::ptrdiff_t>(block.begin + block.length), 2);
        }
        markTags(text, kind, {reward::kThinkingOpenTag, reward::kThinkingCloseTag, reward::kAnswerOpenTag, reward::kAnswerCloseTag}, 1);
        const QString body = renderRuns(text, kind, [](int k, const QString &part) {
            return k == 1 ? tagRun(part) : k == 2 ? swatch(kAnswerBlockColour, part) : part;
        });
        QString h = QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Completion"));
        h += QStringLiteral("<p><tt>%1</tt></p>").arg(body);
        h += QStringLiteral("<p>%1 <tt>%2</tt></p>")
                 .arg(QCoreApplication::translate("TaskPresenter", "Extracted answer:"), completion.answer().empty() ? QStringLiteral("∅") : escape(str(completion.answer())));
        return h;
    }

    QString inputHtml(const task::Example &example, const task::Completion &completion) const override
    {
        const auto *e = dynamic_cast<const reward::ExtractionPrompt *>(&example);
        if (!e || (e->senderEmail().empty() && e->emailText().empty()))
            return {};
        const QList<QPair<QString, const char *>> needles{{str(example.goldText()), kGoldColour},
                                                          {str(completion.answer()), kAnswerColour}};
        QString h = QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "E-mail"));
        h += QStringLiteral("<p>%1 %2</p>").arg(swatch(kGoldColour, QCoreApplication::translate("TaskPresenter", "gold")), swatch(kAnswerColour, QCoreApplication::translate("TaskPresenter", "answer")));
        h += QStringLiteral("<p><b>%1</b> %2</p>").arg(QCoreApplication::translate("TaskPresenter", "From:"), markOccurrences(str(e->senderEmail()), needles));
        h += QStringLiteral("<p>%1</p>").arg(markOccurrences(str(e->emailText()), needles));
        return h;
    }

    QString categoryName(const QString &key, const QString &fallback) const override
    {
        switch (static_cast<FailureCategory>(categoryOf(key))) {
        case FailureCategory::Exact: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Exact");
        case FailureCategory::NoAnswer: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "No answer");
        case FailureCategory::Missed: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Missed (said 不明)");
        case FailureCategory::MarkerOnly: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Legal-entity marker only");
        case FailureCategory::NamedWhereUnknown: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Named a company where the answer is 不明");
        case FailureCategory::Recipient: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Recipient's company");
        case FailureCategory::ThirdParty: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Third party's company");
        case FailureCategory::Invented: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Invented (not in the input)");
        case FailureCategory::OtherWrong: return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Other wrong span");
        }
        return TaskPresenter::categoryName(key, fallback); // the grader-failure category
    }

    QString categoryExplanation(const QString &key, const QString &fallback) const override
    {
        switch (static_cast<FailureCategory>(categoryOf(key))) {
        case FailureCategory::Exact:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "The prediction equals the gold after normalization (NFKC, white space removed). 不明 for 不明 counts here.");
        case FailureCategory::NoAnswer:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "The prediction is empty: the model wrote nothing, or in thinking mode no <answer> block.");
        case FailureCategory::Missed:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "The model answered 不明 although the e-mail states the sender's company.");
        case FailureCategory::MarkerOnly:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Right company, but the legal-entity markers differ (株式会社, (株), … added, dropped or changed).");
        case FailureCategory::NamedWhereUnknown:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "The e-mail does not state the sender's company (gold 不明), but the model named one.");
        case FailureCategory::Recipient:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "The model picked the company the e-mail is addressed to, not the sender's.");
        case FailureCategory::ThirdParty:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "The model picked another company the e-mail mentions (neither sender nor recipient).");
        case FailureCategory::Invented:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "Neither the prediction nor its name without markers occurs in the e-mail or its sender line.");
        case FailureCategory::OtherWrong:
            return QCoreApplication::translate("rwb::widgets::FailureCategoryModel", "The prediction is in the e-mail but is none of the above: a partial or overlapping span, a department, a person.");
        }
        return TaskPresenter::categoryExplanation(key, fallback); // the grader-failure category
    }

    QString categoryShortName(const QString &key, const QString &name) const override
    {
        switch (static_cast<FailureCategory>(categoryOf(key))) {
        case FailureCategory::Exact: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "exact");
        case FailureCategory::NoAnswer: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "empty");
        case FailureCategory::Missed: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "missed");
        case FailureCategory::MarkerOnly: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "marker");
        case FailureCategory::NamedWhereUnknown: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "not 不明");
        case FailureCategory::Recipient: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "recipient");
        case FailureCategory::ThirdParty: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "third");
        case FailureCategory::Invented: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "invented");
        case FailureCategory::OtherWrong: return QCoreApplication::translate("rwb::widgets::FailureTransitionModel", "other");
        }
        return name;
    }

    QString failureStatus(const QString &source, std::string_view,
                          const std::vector<const task::Example *> &examples) const override
    {
        size_t fromData = 0;
        for (const task::Example *e : examples)
            fromData += task::as<task::ExtractionExample>(*e).parties().fromData ? 1 : 0;
        const QString parties =
            fromData == examples.size() ? QCoreApplication::translate("rwb::widgets::FailureExplorer", "recipients and third parties from the data")
            : fromData == 0 ? QCoreApplication::translate("rwb::widgets::FailureExplorer", "recipients and third parties guessed from the addressee block and legal-entity markers")
                            : QCoreApplication::translate("rwb::widgets::FailureExplorer", "recipients and third parties from the data for %1 of %2 e-mails, guessed for the rest")
                                  .arg(fromData)
                                  .arg(examples.size());
        const int n = static_cast<int>(examples.size());
        return QCoreApplication::translate("rwb::widgets::FailureExplorer", "%1 — %n e-mail(s); %2", nullptr, n).arg(source, parties);
    }

    QString failureListTitle(const QString &what, int count) const override
    {
        return QCoreApplication::translate("rwb::widgets::FailureExplorer", "%1: %n e-mail(s)", nullptr, count).arg(what);
    }

    QString failureLegendHtml() const override
    {
        const auto swatch = [](const QString &css, const QString &name) {
            return QStringLiteral("<span style=\"%1\">&nbsp;%2&nbsp;</span>").arg(css, name.toHtmlEscaped());
        };
        const QString bg = QStringLiteral("background-color:%1;");
        return QCoreApplication::translate("rwb::widgets::FailureExplorer", "Highlights:") + QLatin1Char(' ') + swatch(bg.arg(kGoldHighlight.name()), QCoreApplication::translate("rwb::widgets::FailureExplorer", "gold")) + QLatin1Char(' ') +
               swatch(bg.arg(kRecipientHighlight.name()), QCoreApplication::translate("rwb::widgets::FailureExplorer", "recipient")) + QLatin1Char(' ') +
               swatch(bg.arg(kThirdPartyHighlight.name()), QCoreApplication::translate("rwb::widgets::FailureExplorer", "third party")) + QLatin1Char(' ') +
               swatch(QStringLiteral("color:%1; font-weight:bold; text-decoration:underline;").arg(kPredictionHighlight.name()),
                      QCoreApplication::translate("rwb::widgets::FailureExplorer", "prediction (A)")) +
               QLatin1Char(' ') + swatch(QStringLiteral("font-style:italic; text-decoration:overline;"), QCoreApplication::translate("rwb::widgets::FailureExplorer", "prediction B"));
    }

    // The e-mail ("From: <sender>", a blank line, the body) with the gold, the parties and
    // the predictions highlighted (eval::highlightSpans).
    QString failureHtml(const task::Example &example, const task::Completion *a, const task::Completion *b,
                        bool) const override
    {
        const auto &e = task::as<task::ExtractionExample>(example);
        const data::ExtractionRecord &r = e.record();
        const QString prefix = QCoreApplication::translate("rwb::widgets::FailureExplorer", "From: ");
        const QString sender = str(r.senderEmail);
        const QString body = str(r.emailText);
        const int senderStart = static_cast<int>(prefix.size());
        const int bodyStart = senderStart + static_cast<int>(sender.size()) + 2;
        QTextDocument doc;
        doc.setPlainText(prefix + sender + QStringLiteral("\n\n") + body);
        QTextCursor cursor(&doc);
        QTextCharFormat bold;
        bold.setFontWeight(QFont::Bold);
        cursor.setPosition(senderStart);
        cursor.setPosition(bodyStart - 2, QTextCursor::KeepAnchor);
        cursor.mergeCharFormat(bold);
        const auto spans = eval::highlightSpans(r, e.parties(), a ? a->answer() : std::string(), b ? b->answer() : std::string());
        for (const eval::HighlightSpan &span : spans) {
            const QString &text = span.field == eval::SpanField::Sender ? sender : body;
            const int base = span.field == eval::SpanField::Sender ? senderStart : bodyStart;
            cursor.setPosition(base + utf16Offset(text, static_cast<qsizetype>(span.range.begin)));
            cursor.setPosition(base + utf16Offset(text, static_cast<qsizetype>(span.range.end)), QTextCursor::KeepAnchor);
            cursor.mergeCharFormat(formatFor(span.role));
        }
        return doc.toHtml();
    }

    // Where the answer came from, for the categories whose name does not say it.
    QString failureCategoryNote(const task::Example &example, const task::Completion &completion,
                                const QString &key) const override
    {
        const auto &e = task::as<task::ExtractionExample>(example);
        const int c = categoryOf(key);
        if (c != static_cast<int>(FailureCategory::NamedWhereUnknown) && c != static_cast<int>(FailureCategory::OtherWrong))
            return {};
        const PredictionSource source = eval::categorize(e, completion.answer(), e.parties()).source;
        return source == PredictionSource::None ? QString() : sourceName(source);
    }

    QStringList failureNotes(const task::Example &, const task::Completion &completion) const override
    {
        if (completion.text() == completion.answer())
            return {};
        return {QCoreApplication::translate("rwb::widgets::FailureExplorer", "Completion: %1").arg(str(completion.text()).toHtmlEscaped())};
    }

    QStringList failureExampleNotes(const task::Example &example) const override
    {
        return {task::as<task::ExtractionExample>(example).parties().fromData
                    ? QCoreApplication::translate("rwb::widgets::FailureExplorer", "Recipient and third parties: from the data.")
                    : QCoreApplication::translate("rwb::widgets::FailureExplorer", "Recipient and third parties: guessed (addressee block, legal-entity markers).")};
    }
};

} // namespace

std::shared_ptr<const TaskPresenter> makeExtractionPresenter()
{
    return std::make_shared<const ExtractionPresenter>();
}

} // namespace rwb::widgets::tasks
