#include "taskpresenter.h"

#include "failurecategorymodel.h"
#include "rewardhtml.h"

#include "tasks/legalqa/legalquestion.h"
#include "eval/failureanalysis.h"
#include "tasks/extraction/extraction.h"
#include "tasks/extraction/extractiontask.h"
#include "tasks/legalqa/legalqatask.h"
#include "task/task.h"
#include "text/lcs.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <set>

namespace rwb::widgets {

namespace {

using RewardHtml::escape;

QString str(const std::string &s)
{
    return QString::fromStdString(s);
}

QString swatch(const char *colour, const QString &label)
{
    return QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(colour), label);
}

// Colours of the completion's tags and of the answer block.
const char *const kTagColour = "#7a3db8";
const char *const kAnswerBlockColour = "#dde9ff";
// The e-mail's marks (the Reward Designer's).
const char *const kAnswerColour = "#b8d8ff";
const char *const kGoldColour = "#bfe8c0";
const char *const kMarkerColour = "#f4c2c2";

// answer and gold (UTF-8) with their longest common substring green, the rest of the
// answer red and the rest of the gold orange.
std::pair<QString, QString> markedPair(const std::string &answer, const std::string &gold)
{
    const text::CommonSubstring c = text::longestCommonSubstring(text::decodeUtf8(answer), text::decodeUtf8(gold));
    return {RewardHtml::markSpan(answer, {c.posA, c.length}, RewardHtml::kSameColour, RewardHtml::kExtraColour),
            RewardHtml::markSpan(gold, {c.posB, c.length}, RewardHtml::kSameColour, RewardHtml::kMissingColour)};
}

QString pairRows(const QString &answerLabel, const QString &goldLabel, const std::pair<QString, QString> &p)
{
    return QStringLiteral("<tr><td>%1</td><td><tt>%2</tt></td></tr><tr><td>%3</td><td><tt>%4</tt></td></tr>")
        .arg(answerLabel, p.first, goldLabel, p.second);
}

QString legendOfPair()
{
    return QStringLiteral("<p>%1 %2 %3</p>")
        .arg(swatch(RewardHtml::kSameColour, QCoreApplication::translate("TaskPresenter", "in both")), swatch(RewardHtml::kExtraColour, QCoreApplication::translate("TaskPresenter", "only in the answer")),
             swatch(RewardHtml::kMissingColour, QCoreApplication::translate("TaskPresenter", "missing from the answer")));
}

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
        out += current ? swatch(current, escape(run)) : escape(run);
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

// Bytes of `text` marked by kind (0 plain); each run rendered by `render(kind, escaped run)`.
// Runs split only where kinds change, which callers put at ASCII tag edges.
template <class Render>
QString renderRuns(const std::string &text, const std::vector<int> &kind, Render render)
{
    QString body;
    size_t start = 0;
    for (size_t i = 1; i <= text.size(); ++i) {
        if (i < text.size() && kind[i] == kind[start])
            continue;
        body += render(kind[start], escape(str(text.substr(start, i - start))));
        start = i;
    }
    return text.empty() ? QStringLiteral("<i>∅</i>") : body;
}

void markTags(const std::string &text, std::vector<int> &kind, std::initializer_list<std::string_view> tags, int value)
{
    for (std::string_view tag : tags)
        for (size_t pos = text.find(tag); pos != std::string::npos; pos = text.find(tag, pos + tag.size()))
            std::fill(kind.begin() + static_cast<std::ptrdiff_t>(pos),
                      kind.begin() + static_cast<std::ptrdiff_t>(pos + tag.size()), value);
}

QString tagRun(const QString &part)
{
    return QStringLiteral("<b><span style=\"color:%1\">%2</span></b>").arg(QLatin1String(kTagColour), part);
}

// ---------------------------------------------------------------- the generic presenter

class GenericPresenter : public TaskPresenter {};

// ---------------------------------------------------------------- company extraction

class ExtractionPresenter : public TaskPresenter {
public:
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

// ---------------------------------------------------------------- legal QA

// Colours of a law code: cited and gold, cited but not gold, gold but not cited.
const char *const kCitedGold = RewardHtml::kSameColour;
const char *const kCitedWrong = RewardHtml::kExtraColour;
const char *const kGoldMissed = RewardHtml::kMissingColour;

class LegalQaPresenter : public TaskPresenter {
public:
    QString outcomeHtml(const task::Example &example, const task::Completion &completion,
                        const std::vector<reward::Explanation> &) const override
    {
        const auto *e = dynamic_cast<const task::LegalQaExample *>(&example);
        const auto *c = dynamic_cast<const task::LegalQaCompletion *>(&completion);
        if (!e || !c)
            return {};
        const std::vector<int64_t> &gold = e->gold();
        const std::set<int64_t> goldSet(gold.begin(), gold.end());
        const std::set<int64_t> cited(c->output().citedCodes.begin(), c->output().citedCodes.end());

        QString h = QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Citations against gold"));
        h += QStringLiteral("<p>%1 %2 %3</p>")
                 .arg(swatch(kCitedGold, QCoreApplication::translate("TaskPresenter", "cited and gold")), swatch(kCitedWrong, QCoreApplication::translate("TaskPresenter", "cited, not gold")),
                      swatch(kGoldMissed, QCoreApplication::translate("TaskPresenter", "gold, not cited")));
        h += QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\">"
                            "<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
                 .arg(QCoreApplication::translate("TaskPresenter", "Law code"), QCoreApplication::translate("TaskPresenter", "Section"), QCoreApplication::translate("TaskPresenter", "Gold"), QCoreApplication::translate("TaskPresenter", "Cited"), QCoreApplication::translate("TaskPresenter", "In the prompt"));
        auto row = [&](int64_t code, const QString &title, bool inPrompt) {
            const bool g = goldSet.count(code) > 0, ct = cited.count(code) > 0;
            const char *colour = g && ct ? kCitedGold : ct ? kCitedWrong : g ? kGoldMissed : nullptr;
            const QString codeText = QString::number(code);
            return QStringLiteral("<tr><td align=right><tt>%1</tt></td><td>%2</td><td>%3</td><td>%4</td><td>%5</td></tr>")
                .arg(colour ? swatch(colour, codeText) : codeText, title, g ? QCoreApplication::translate("TaskPresenter", "yes") : QString(),
                     ct ? QCoreApplication::translate("TaskPresenter", "yes") : QString(), inPrompt ? QCoreApplication::translate("TaskPresenter", "yes") : QCoreApplication::translate("TaskPresenter", "no"));
        };
        std::set<int64_t> shown;
        for (const data::RetrievedSection &s : e->question().retrieved) {
            h += row(s.lawCode, escape(str(s.title)), true);
            shown.insert(s.lawCode);
        }
        const bool hasSections = !e->question().retrieved.empty();
        for (int64_t code : gold)
            if (shown.insert(code).second)
                h += row(code, QStringLiteral("<i>%1</i>").arg(hasSections ? QCoreApplication::translate("TaskPresenter", "not retrieved: the model could not see it")
                                                                           : QCoreApplication::translate("TaskPresenter", "no sections in the prompt")),
                         !hasSections);
        for (int64_t code : c->output().citedCodes)
            if (shown.insert(code).second)
                h += row(code, QStringLiteral("<i>%1</i>").arg(QCoreApplication::translate("TaskPresenter", "not in the prompt: a hallucinated code")), false);
        h += QStringLiteral("</table>");
        const eval::LegalOutput &o = c->output();
        QStringList notes;
        if (o.duplicateCitations > 0)
            notes << QCoreApplication::translate("TaskPresenter", "%n duplicate citation(s).", nullptr, static_cast<int>(o.duplicateCitations));
        if (!o.invalidCodes.empty())
            notes << QCoreApplication::translate("TaskPresenter", "%n <law_code> element(s) whose content is not an integer.", nullptr, static_cast<int>(o.invalidCodes.size()));
        if (!o.formatOk())
            notes << QCoreApplication::translate("TaskPresenter", "The format breaks: %1.").arg(str(std::string(eval::legalFormatName(o.format))));
        if (!notes.isEmpty())
            h += QStringLiteral("<p>%1</p>").arg(escape(notes.join(QLatin1Char(' '))));

        const eval::LegalGrade &g = c->grade();
        h += QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "The answer's facts against the reference"));
        h += QStringLiteral("<p>%1 %2 %3</p>")
                 .arg(swatch(RewardHtml::kSameColour, QCoreApplication::translate("TaskPresenter", "stated")), swatch(RewardHtml::kMissingColour, QCoreApplication::translate("TaskPresenter", "missing")),
                      swatch(RewardHtml::kExtraColour, QCoreApplication::translate("TaskPresenter", "contradicted")));
        h += QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\">"
                            "<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th></tr>")
                 .arg(QCoreApplication::translate("TaskPresenter", "Law code"), QCoreApplication::translate("TaskPresenter", "Slot"), QCoreApplication::translate("TaskPresenter", "Reference value"), QCoreApplication::translate("TaskPresenter", "In the answer"));
        for (const eval::FactGrade &f : g.facts) {
            QStringList said;
            for (const eval::ValueMention &m : f.contradictions)
                said << swatch(RewardHtml::kExtraColour, escape(str(m.value)));
            if (f.stated)
                said.prepend(swatch(RewardHtml::kSameColour, escape(str(f.fact.value))));
            const char *colour = f.verdict == eval::FactVerdict::Stated    ? RewardHtml::kSameColour
                                 : f.verdict == eval::FactVerdict::Missing ? RewardHtml::kMissingColour
                                                                           : RewardHtml::kExtraColour;
            h += QStringLiteral("<tr><td align=right><tt>%1</tt></td><td>%2</td><td>%3</td><td>%4</td></tr>")
                     .arg(QString::number(f.fact.lawCode), escape(str(f.fact.slot)),
                          swatch(colour, escape(str(f.fact.value))),
                          said.isEmpty() ? QCoreApplication::translate("TaskPresenter", "not stated") : said.join(QStringLiteral(" ")));
        }
        h += QStringLiteral("</table>");
        h += QStringLiteral("<p>%1</p>")
                 .arg(QCoreApplication::translate("TaskPresenter", "Coverage %1 (%2 of %3 facts stated) · consistency %4")
                          .arg(QString::number(g.coverage, 'f', 1))
                          .arg(g.stated)
                          .arg(g.facts.size())
                          .arg(QString::number(g.consistency, 'f', 0)));
        h += QStringLiteral("<table cellpadding=2>");
        h += pairRows(QCoreApplication::translate("TaskPresenter", "Answer"), QCoreApplication::translate("TaskPresenter", "Reference answer"), markedPair(c->answer(), e->question().referenceAnswer));
        h += QStringLiteral("</table>");
        return h;
    }

    QString completionHtml(const task::Example &example, const task::Completion &completion, bool) const override
    {
        const auto *e = dynamic_cast<const task::LegalQaExample *>(&example);
        const auto *c = dynamic_cast<const task::LegalQaCompletion *>(&completion);
        const std::string &text = completion.text();
        // Per byte: 0 plain, 1 a tag, 2 the answer block, 3/4/5 a cited code that is gold /
        // in the prompt but not gold / not in the prompt.
        std::vector<int> kind(text.size(), 0);
        if (c && c->output().answer.found)
            std::fill(kind.begin() + static_cast<std::ptrdiff_t>(c->output().answer.inner.begin),
                      kind.begin() + static_cast<std::ptrdiff_t>(c->output().answer.inner.end), 2);
        markTags(text, kind,
                 {"<reasoning>", "</reasoning>", "<answer>", "</answer>", "<citation>", "</citation>", "<law_code>", "</law_code>"}, 1);
        if (c && e)
            for (const eval::CitedCode &cc : c->output().citations) {
                const std::set<int64_t> goldSet(e->gold().begin(), e->gold().end());
                const int k = goldSet.count(cc.code) ? 3 : e->retrievedCodes().count(cc.code) ? 4 : 5;
                std::fill(kind.begin() + static_cast<std::ptrdiff_t>(cc.span.begin),
                          kind.begin() + static_cast<std::ptrdiff_t>(cc.span.end), k);
            }
        const QString body = renderRuns(text, kind, [](int k, const QString &part) {
            switch (k) {
            case 1: return tagRun(part);
            case 2: return swatch(kAnswerBlockColour, part);
            case 3: return swatch(kCitedGold, part);
            case 4:
            case 5: return QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(kCitedWrong), k == 5 ? QStringLiteral("<u>%1</u>").arg(part) : part);
            default: return part;
            }
        });
        QString h = QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Completion"));
        h += QStringLiteral("<p><tt>%1</tt></p>").arg(body);
        return h;
    }

    QString inputHtml(const task::Example &example, const task::Completion &completion) const override
    {
        const auto *e = dynamic_cast<const task::LegalQaExample *>(&example);
        const auto *c = dynamic_cast<const task::LegalQaCompletion *>(&completion);
        if (!e)
            return {};
        const data::LegalQuestion &q = e->question();
        const std::set<int64_t> goldSet(q.lawCodes.begin(), q.lawCodes.end());
        std::set<int64_t> cited;
        if (c)
            cited.insert(c->output().citedCodes.begin(), c->output().citedCodes.end());
        QString h = QStringLiteral("<h4>%1</h4><p>%2</p>").arg(QCoreApplication::translate("TaskPresenter", "Question"), escape(str(q.question)));
        h += QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Sections in the prompt (retriever's order)"));
        if (q.retrieved.empty())
            h += QStringLiteral("<p><i>%1</i></p>").arg(QCoreApplication::translate("TaskPresenter", "none: the prompt has the question only"));
        int rank = 0;
        for (const data::RetrievedSection &s : q.retrieved) {
            const bool g = goldSet.count(s.lawCode) > 0, ct = cited.count(s.lawCode) > 0;
            const char *colour = g && ct ? kCitedGold : ct ? kCitedWrong : g ? kGoldMissed : nullptr;
            QStringList marks;
            if (g)
                marks << QCoreApplication::translate("TaskPresenter", "gold");
            if (ct)
                marks << QCoreApplication::translate("TaskPresenter", "cited");
            const QString code = QString::number(s.lawCode);
            h += QStringLiteral("<p>%1. <tt>%2</tt> <b>%3</b>%4<br>%5</p>")
                     .arg(++rank)
                     .arg(colour ? swatch(colour, code) : code, escape(str(s.title)),
                          marks.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(marks.join(QStringLiteral(", "))),
                          escape(str(s.text)));
        }
        h += QStringLiteral("<h4>%1</h4><p>%2</p>").arg(QCoreApplication::translate("TaskPresenter", "Reference answer"), escape(str(q.referenceAnswer)));
        return h;
    }
};

} // namespace

TaskPresenter::~TaskPresenter() = default;

const TaskPresenter &TaskPresenter::forTask(std::string_view task)
{
    static const ExtractionPresenter extraction;
    static const LegalQaPresenter legal;
    static const GenericPresenter generic;
    if (task == data::kCompanyExtractionTask)
        return extraction;
    if (task == data::kLegalQaTask)
        return legal;
    return generic;
}

QString TaskPresenter::outcomeHtml(const task::Example &example, const task::Completion &completion,
                                   const std::vector<reward::Explanation> &) const
{
    QString h = QStringLiteral("<h4>%1</h4>").arg(QCoreApplication::translate("TaskPresenter", "Answer against gold"));
    h += legendOfPair();
    h += QStringLiteral("<table cellpadding=2>");
    h += pairRows(QCoreApplication::translate("TaskPresenter", "Answer"), QCoreApplication::translate("TaskPresenter", "Gold"), markedPair(completion.answer(), example.goldText()));
    h += QStringLiteral("</table>");
    return h;
}

QString TaskPresenter::componentDetailHtml(const std::vector<reward::Explanation> &) const
{
    return {};
}

QString TaskPresenter::completionHtml(const task::Example &, const task::Completion &completion, bool) const
{
    return QStringLiteral("<h4>%1</h4><p><tt>%2</tt></p>")
        .arg(QCoreApplication::translate("TaskPresenter", "Completion"), completion.text().empty() ? QStringLiteral("<i>∅</i>") : escape(str(completion.text())));
}

QString TaskPresenter::inputHtml(const task::Example &example, const task::Completion &) const
{
    const std::string meta = example.metaJson();
    if (meta.empty() || meta == "{}")
        return {};
    return QStringLiteral("<h4>%1</h4><p><tt>%2</tt></p>").arg(QCoreApplication::translate("TaskPresenter", "Input (as stored)"), escape(str(meta)));
}

QString TaskPresenter::failureCategoryName(const QString &key, const QString &fallback)
{
    for (size_t i = 0; i < eval::kFailureCategoryCount; ++i)
        if (key == QLatin1String(eval::categoryKey(static_cast<eval::FailureCategory>(i))))
            return FailureCategoryModel::categoryName(static_cast<eval::FailureCategory>(i));
    if (key == QLatin1String("right"))
        return QCoreApplication::translate("TaskPresenter", "Right");
    if (key == QLatin1String("format"))
        return QCoreApplication::translate("TaskPresenter", "Format");
    if (key == QLatin1String("hallucinated_citation"))
        return QCoreApplication::translate("TaskPresenter", "Hallucinated citation");
    if (key == QLatin1String("missing_citation"))
        return QCoreApplication::translate("TaskPresenter", "Missing citation");
    if (key == QLatin1String("wrong_citation"))
        return QCoreApplication::translate("TaskPresenter", "Wrong citation");
    if (key == QLatin1String("contradiction"))
        return QCoreApplication::translate("TaskPresenter", "Contradiction");
    if (key == QLatin1String("incomplete"))
        return QCoreApplication::translate("TaskPresenter", "Incomplete answer");
    if (key == QLatin1String("exact"))
        return QCoreApplication::translate("TaskPresenter", "Exact match");
    if (key == QLatin1String("not_json"))
        return QCoreApplication::translate("TaskPresenter", "Not JSON");
    if (key == QLatin1String("field_mismatch"))
        return QCoreApplication::translate("TaskPresenter", "Field mismatch");
    if (key == QLatin1String("different"))
        return QCoreApplication::translate("TaskPresenter", "Different");
    return fallback;
}

QString TaskPresenter::failureCategoryExplanation(const QString &key, const QString &fallback)
{
    for (size_t i = 0; i < eval::kFailureCategoryCount; ++i)
        if (key == QLatin1String(eval::categoryKey(static_cast<eval::FailureCategory>(i))))
            return FailureCategoryModel::categoryExplanation(static_cast<eval::FailureCategory>(i));
    if (key == QLatin1String("right"))
        return QCoreApplication::translate("TaskPresenter", "Cites exactly the gold sections in the prompt, states every reference fact and contradicts none.");
    if (key == QLatin1String("format"))
        return QCoreApplication::translate("TaskPresenter", "The completion is not <reasoning>, <answer>, <citation> in that order and nothing else.");
    if (key == QLatin1String("hallucinated_citation"))
        return QCoreApplication::translate("TaskPresenter", "Cites a law code that is not among the sections in the prompt.");
    if (key == QLatin1String("missing_citation"))
        return QCoreApplication::translate("TaskPresenter", "Cites no law code.");
    if (key == QLatin1String("wrong_citation"))
        return QCoreApplication::translate("TaskPresenter", "Cites sections of the prompt, but not exactly the gold ones (a near-duplicate, one of two, an extra one).");
    if (key == QLatin1String("contradiction"))
        return QCoreApplication::translate("TaskPresenter", "Cites the right sections but states a reference fact with another value (a deadline, an amount, an authority).");
    if (key == QLatin1String("incomplete"))
        return QCoreApplication::translate("TaskPresenter", "Cites the right sections and contradicts nothing, but leaves out a reference fact.");
    if (key == QLatin1String("exact"))
        return QCoreApplication::translate("TaskPresenter", "The reply is the gold reply (white space at the ends aside).");
    if (key == QLatin1String("not_json"))
        return QCoreApplication::translate("TaskPresenter", "The gold reply is a JSON object and the reply is not one.");
    if (key == QLatin1String("field_mismatch"))
        return QCoreApplication::translate("TaskPresenter", "Both are JSON objects, but a field of the gold has another value or is missing.");
    if (key == QLatin1String("different"))
        return QCoreApplication::translate("TaskPresenter", "The gold reply is not a JSON object and the reply differs from it.");
    return fallback;
}

QString TaskPresenter::categoryHtml(const task::Task &task, const task::Example &example, const task::Completion &completion)
{
    const std::vector<task::FailureCategory> categories = task.failureCategories();
    const size_t i = task.failureCategory(example, completion);
    if (i >= categories.size())
        return {};
    const task::FailureCategory &c = categories[i];
    const QString key = str(c.key);
    return QStringLiteral("<p>%1 <b>%2</b> — %3</p>")
        .arg(QCoreApplication::translate("TaskPresenter", "Failure category:"), escape(failureCategoryName(key, str(c.name))),
             escape(failureCategoryExplanation(key, str(c.explanation))));
}

} // namespace rwb::widgets
