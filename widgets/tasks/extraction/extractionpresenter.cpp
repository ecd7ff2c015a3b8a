// What the detail panes show of a company-extraction example (the first paper): the
// answer against the gold, the comparisons behind the rewards, the completion's tags and
// the e-mail with the answer, the gold and the legal-entity markers marked.
#include "tasks/presenters.h"

#include "presenterhtml.h"
#include "taskpresenter.h"

#include "tasks/extraction/extraction.h"
#include "tasks/extraction/extractiontask.h"
#include "text/lcs.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <set>

namespace rwb::widgets::tasks {

namespace {

using namespace presenterhtml;

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
};

} // namespace

std::shared_ptr<const TaskPresenter> makeExtractionPresenter()
{
    return std::make_shared<const ExtractionPresenter>();
}

} // namespace rwb::widgets::tasks
