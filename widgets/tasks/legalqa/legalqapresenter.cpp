// What the detail panes show of a legal-QA example (the third paper): the citations
// against the gold sections, the answer's facts against the reference's, the
// completion's blocks and the question with the sections in the prompt.
#include "tasks/presenters.h"

#include "presenterhtml.h"
#include "taskpresenter.h"

#include "tasks/legalqa/legalqatask.h"
#include "tasks/legalqa/legalquestion.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <set>

namespace rwb::widgets::tasks {

namespace {

using namespace presenterhtml;


// Colours of a law code: cited and gold, cited but not gold, gold but not cited.
const char *const kCitedGold = RewardHtml::kSameColour;
const char *const kCitedWrong = RewardHtml::kExtraColour;
const char *const kGoldMissed = RewardHtml::kMissingColour;

class LegalQaPresenter : public TaskPresenter {
public:
    // Citation + semantic, the paper's third run.
    QString defaultPreset() const override { return QStringLiteral(":/presets/legal_citation_semantic.json"); }

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
        const int duplicates = static_cast<int>(o.duplicateCitations);
        const int invalid = static_cast<int>(o.invalidCodes.size());
        if (duplicates > 0)
            notes << QCoreApplication::translate("TaskPresenter", "%n duplicate citation(s).", nullptr, duplicates);
        if (invalid > 0)
            notes << QCoreApplication::translate("TaskPresenter", "%n <law_code> element(s) whose content is not an integer.", nullptr, invalid);
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

    std::vector<CategoryText> categoryTexts() const override
    {
        return {
            {"right", QT_TRANSLATE_NOOP("TaskPresenter", "Right"),
             QT_TRANSLATE_NOOP("TaskPresenter", "Cites exactly the gold sections in the prompt, states every reference fact and contradicts none.")},
            {"format", QT_TRANSLATE_NOOP("TaskPresenter", "Format"),
             QT_TRANSLATE_NOOP("TaskPresenter", "The completion is not <reasoning>, <answer>, <citation> in that order and nothing else.")},
            {"hallucinated_citation", QT_TRANSLATE_NOOP("TaskPresenter", "Hallucinated citation"),
             QT_TRANSLATE_NOOP("TaskPresenter", "Cites a law code that is not among the sections in the prompt.")},
            {"missing_citation", QT_TRANSLATE_NOOP("TaskPresenter", "Missing citation"),
             QT_TRANSLATE_NOOP("TaskPresenter", "Cites no law code.")},
            {"wrong_citation", QT_TRANSLATE_NOOP("TaskPresenter", "Wrong citation"),
             QT_TRANSLATE_NOOP("TaskPresenter", "Cites sections of the prompt, but not exactly the gold ones (a near-duplicate, one of two, an extra one).")},
            {"contradiction", QT_TRANSLATE_NOOP("TaskPresenter", "Contradiction"),
             QT_TRANSLATE_NOOP("TaskPresenter", "Cites the right sections but states a reference fact with another value (a deadline, an amount, an authority).")},
            {"incomplete", QT_TRANSLATE_NOOP("TaskPresenter", "Incomplete answer"),
             QT_TRANSLATE_NOOP("TaskPresenter", "Cites the right sections and contradicts nothing, but leaves out a reference fact.")},
        };
    }
};

} // namespace

std::shared_ptr<const TaskPresenter> makeLegalQaPresenter()
{
    return std::make_shared<const LegalQaPresenter>();
}

} // namespace rwb::widgets::tasks
