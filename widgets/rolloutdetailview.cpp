#include "rolloutdetailview.h"

#include "storedrewardconfig.h"

#include "taskpresenter.h"

#include "data/jsonl.h"
#include "reward/compositereward.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "rewardhtml.h"
#include "rewardtext.h"
#include "rewardvalue.h"
#include "store/runstore.h"
#include "task/catalog.h"
#include "task/task.h"

#include <nlohmann/json.hpp>

#include <QEvent>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace rwb::widgets {

namespace {

using RewardHtml::escape;

// The prompt is cut to this many characters until "show all" is clicked.
constexpr int kPromptPreview = 600;
// Advantage colours.
const char *const kPositiveColour = "#1a7f37";
const char *const kNegativeColour = "#c62828";
// A stored component value and the one recomputed now differ when further apart than this.
constexpr double kRecomputeTolerance = 1e-6;

QString str(const std::string &s)
{
    return QString::fromStdString(s);
}

// A rollout as stored, for when its task cannot rebuild it: the gold and the answer.
class StoredExample : public task::Example {
public:
    explicit StoredExample(std::string gold) : m_gold(std::move(gold)) {}
    const std::string &id() const override { return m_id; }
    std::string goldText() const override { return m_gold; }
    std::string metaJson() const override { return {}; }

private:
    std::string m_id, m_gold;
};
class StoredCompletion : public task::Completion {
public:
    StoredCompletion(std::string text, std::string answer) : m_text(std::move(text)), m_answer(std::move(answer)) {}
    const std::string &text() const override { return m_text; }
    const std::string &answer() const override { return m_answer; }

private:
    std::string m_text, m_answer;
};

// What the composite is given for its judge components: a judge that is never asked (no
// cache file, no model loaded); their explanations come from the stored decisions.
const char *const kUnusedJudge = R"({"backend": "http", "url": "http://127.0.0.1:1/v1"})";

// A judge component's explanation from the decisions stored with the rollout: the value
// the run stored, the calls made for it, and why it is None when it is.
reward::Explanation storedJudgeExplanation(const QString &name, const RolloutDetailView::Component &k,
                                           const std::vector<store::StoredJudgeDecision> &decisions)
{
    reward::Explanation e;
    e.reward = name.toStdString();
    e.value = k.storedValue;
    for (const store::StoredJudgeDecision &d : decisions)
        if (d.decision.reward == e.reward)
            e.decisions.push_back(d.decision);
    e.reason = reward::Reason::JudgeVerdict;
    if (k.storedNone || std::isnan(k.storedValue)) {
        e.reason = reward::Reason::JudgeFailed;
        for (const reward::JudgeDecision &d : e.decisions)
            if (!d.error.empty()) {
                e.detail = d.error;
                break;
            }
    }
    return e;
}

} // namespace

RolloutDetailView::RolloutDetailView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("rolloutDetail"));
    m_browser->setOpenLinks(false);
    m_browser->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &RolloutDetailView::anchorClicked);
    layout->addWidget(m_browser);
    clear();
}

RolloutDetailView::Content RolloutDetailView::load(const store::RunStore &store, int64_t rolloutId)
{
    Content c;
    c.rollout = store.rollout(rolloutId);
    const store::StoredRollout &r = c.rollout;
    const store::RunInfo run = store.run(r.runId);
    c.runName = str(run.name);
    c.task = run.task;

    // The example as the rewards saw it (GRPO records it in the prompt's metadata).
    const std::string meta = store.rolloutPromptMeta(rolloutId);

    // The config in force: the last version recorded at or before the rollout's step.
    const std::vector<store::RewardConfigVersion> versions = store.rewardConfigs(r.runId);
    const store::RewardConfigVersion *inForce = nullptr;
    for (const auto &v : versions)
        if (v.step <= r.step)
            inForce = &v;
    const QJsonObject stored = QJsonDocument::fromJson(QByteArray::fromStdString(r.rollout.rewardsJson)).object();
    // A number; NaN when absent or None (null: the trainer writes a None component so).
    auto storedValue = [&](const QString &name) {
        return stored.value(name).isDouble() ? stored.value(name).toDouble() : std::numeric_limits<double>::quiet_NaN();
    };
    auto storedNone = [&](const QString &name) { return stored.contains(name) && stored.value(name).isNull(); };
    auto component = [&](const QString &name, double weight) {
        Component k;
        k.name = name;
        k.storedValue = storedValue(name);
        k.storedNone = storedNone(name);
        k.weight = weight;
        return k;
    };
    // The judge calls stored with the rollout: judge components are explained from them.
    const std::vector<store::StoredJudgeDecision> decisions = store.judgeDecisions(r.runId, [&] {
        store::JudgeDecisionFilter f;
        f.rolloutId = rolloutId;
        return f;
    }());
    c.judgeCalls = static_cast<int>(decisions.size());
    const task::Catalog &catalog = task::Catalog::builtin();
    // A run imported from another trainer without --task has no task of ours: its
    // rollouts are shown as the trainer logged them, not parsed by the default task (whose
    // failure categories and gold comparison would be about another task's answers).
    const bool untasked = run.task.empty() && run.kind == "external";
    const task::Task *task = untasked ? nullptr : catalog.find(c.task);
    if (task) // a run that names no task: the default one
        c.task = std::string(task->name());
    QStringList problems;
    // The example and the completion, for the outcome and the explanations.
    if (untasked) {
    } else if (!task) {
        problems << tr("This build has no task \"%1\", so the rollout is shown as stored.").arg(str(c.task));
    } else {
        try {
            c.example = task->exampleFromStore(meta.empty() ? "{}" : meta, r.gold,
                                               "run " + std::to_string(r.runId) + ", prompt of rollout " + std::to_string(rolloutId));
        } catch (const std::exception &e) {
            if ((c.example = task->exampleFromGold(r.gold))) {
                // No input recorded (an older store): explained without it, with the gold.
                problems << tr("The prompt has no recorded input, so rewards that look at it are explained without it.");
            } else {
                problems << tr("The prompt's recorded input could not be read: %1").arg(str(e.what()));
            }
        }
    }
    if (!inForce) {
        if (!untasked)
            problems << tr("The run recorded no reward config at or before step %1.").arg(r.step);
        c.thinking = r.rollout.completion.find("<answer>") != std::string::npos;
        for (auto it = stored.begin(); it != stored.end(); ++it)
            c.components.push_back(component(it.key(), 0.0));
    } else {
        c.configStep = inForce->step;
        const std::string source = "reward config of run " + std::to_string(r.runId) + " at step " + std::to_string(inForce->step);
        try {
            reward::RewardConfig config = reward::parseRewardConfig(inForce->configJson, source, catalog.rewards());
            c.thinking = config.thinking;
            if (!c.example)
                throw std::runtime_error("without the prompt's input the components cannot be explained");
            // Showing a rollout never calls a judge (nor loads a local judge model or opens
            // its cache): judge components are explained from their stored decisions, so
            // the composite gets a judge it never asks.
            if (!config.judge.empty())
                config.judge = kUnusedJudge;
            c.completion = task->parse(*c.example, r.rollout.completion, c.thinking);
            const reward::CompositeReward composite(config, source, catalog.rewards());
            for (size_t i = 0; i < composite.size(); ++i) {
                const QString name = str(composite.componentName(i));
                Component k = component(name, composite.weight(i));
                // By its reward, not its name: a judge component may be named otherwise.
                const reward::Registry::Entry *entry = catalog.rewards().find(composite.config().components[i].reward);
                k.explanation = entry && entry->needsJudge ? storedJudgeExplanation(name, k, decisions)
                                                           : composite.component(i).explain(*c.example, *c.completion);
                k.explained = true;
                c.components.push_back(std::move(k));
            }
        } catch (const std::exception &e) {
            // Show what was stored, without explanations: the config may name a reward this build lacks.
            problems << tr("The reward config could not be rebuilt to explain the values: %1").arg(str(e.what()));
            const StoredRewardConfig stored = readStoredRewardConfig(inForce->configJson);
            c.thinking = stored.thinking;
            for (int i = 0; i < stored.names.size(); ++i)
                c.components.push_back(component(stored.names[i], stored.weights[i]));
        }
    }
    if (task && c.example && !c.completion)
        c.completion = task->parse(*c.example, r.rollout.completion, c.thinking);
    if (task && c.example && c.completion)
        c.categoryHtml = TaskPresenter::categoryHtml(*task, *c.example, *c.completion);
    c.problem = problems.join(QLatin1Char(' '));
    return c;
}

void RolloutDetailView::showRollout(const Content &content)
{
    if (!m_hasContent || m_content.rollout.id != content.rollout.id)
        m_promptExpanded = false;
    m_content = content;
    m_hasContent = true;
    render();
}

void RolloutDetailView::clear()
{
    m_hasContent = false;
    m_content = {};
    m_html = QStringLiteral("<p style=\"color:gray\">%1</p>")
                 .arg(tr("Select a rollout to see its answer against the gold and why each reward component gave what it gave."));
    m_browser->setHtml(m_html);
}

QString RolloutDetailView::plainText() const
{
    return m_browser->toPlainText();
}

void RolloutDetailView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (m_hasContent)
            render();
        else
            clear();
    }
    QWidget::changeEvent(event);
}

void RolloutDetailView::anchorClicked(const QUrl &url)
{
    if (url.toString() == QLatin1String("#prompt")) {
        m_promptExpanded = !m_promptExpanded;
        render();
    } else if (url.toString() == QLatin1String("#judge") && m_hasContent) {
        Q_EMIT judgeCallsRequested(m_content.rollout.id);
    }
}

void RolloutDetailView::render()
{
    m_html = headerHtml() + answerHtml() + componentsHtml() + rewardNotesHtml() + processHtml() + completionHtml() +
             inputHtml() + promptHtml();
    m_browser->setHtml(m_html);
}

QString RolloutDetailView::headerHtml() const
{
    const store::StoredRollout &s = m_content.rollout;
    const store::Rollout &r = s.rollout;
    QString h = QStringLiteral("<h3>%1</h3>")
                    .arg(tr("Run %1 (#%2) · step %3 · group %4 · sample %5")
                             .arg(escape(m_content.runName))
                             .arg(s.runId)
                             .arg(s.step)
                             .arg(r.groupIndex)
                             .arg(r.sampleIndex));
    const QString advColour = r.advantage > 0 ? QLatin1String(kPositiveColour)
                              : r.advantage < 0 ? QLatin1String(kNegativeColour)
                                                : QStringLiteral("black");
    h += QStringLiteral("<table cellpadding=2>");
    const QString total = RewardValue::isNone(r.reward)
                              ? QStringLiteral("<span style=\"color:%1\">%2</span>")
                                    .arg(QLatin1String(kNegativeColour), RewardValue::noneText())
                              : QString::number(r.reward, 'f', 3);
    h += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td>").arg(tr("Reward (weighted total)"), total);
    h += QStringLiteral("<td>&nbsp;&nbsp;%1</td><td><b><span style=\"color:%2\">%3</span></b></td></tr>")
             .arg(tr("Advantage"), advColour, QString::number(r.advantage, 'f', 3));
    h += QStringLiteral("<tr><td>%1</td><td>%2</td>").arg(tr("Tokens"), QString::number(r.completionTokens));
    h += QStringLiteral("<td>&nbsp;&nbsp;%1</td><td>%2</td></tr>")
             .arg(tr("Truncated"), r.truncated ? QStringLiteral("<span style=\"color:%1\">%2</span>")
                                                      .arg(QLatin1String(kNegativeColour), tr("yes"))
                                               : tr("no"));
    h += QStringLiteral("</table>");
    // The per-token arrays (RunStore::rollout() reads them): mean log-prob of each policy.
    auto mean = [](const std::vector<float> &v) {
        double sum = 0.0;
        for (float x : v)
            sum += x;
        return v.empty() ? QStringLiteral("—") : QString::number(sum / static_cast<double>(v.size()), 'f', 3);
    };
    if (!r.logprobsOld.empty() || !r.logprobsNew.empty() || !r.logprobsRef.empty())
        h += QStringLiteral("<p style=\"color:gray\">%1 %2</p>")
                 .arg(tr("Mean log-prob per token:"),
                      tr("sampling %1 · updated %2 · reference %3 (%4 token ids)")
                          .arg(mean(r.logprobsOld), mean(r.logprobsNew), mean(r.logprobsRef))
                          .arg(r.tokenIds.size()));
    h += m_content.categoryHtml;
    if (!m_content.problem.isEmpty())
        h += QStringLiteral("<p style=\"color:%1\">%2</p>").arg(QLatin1String(kNegativeColour), escape(m_content.problem));
    return h;
}

std::vector<reward::Explanation> RolloutDetailView::explanations() const
{
    std::vector<reward::Explanation> out;
    for (const Component &c : m_content.components)
        if (c.explained)
            out.push_back(c.explanation);
    return out;
}

QString RolloutDetailView::answerHtml() const
{
    const TaskPresenter &presenter = TaskPresenter::forTask(m_content.task);
    if (m_content.example && m_content.completion)
        return presenter.outcomeHtml(*m_content.example, *m_content.completion, explanations());
    // Without the task's view of it: the stored answer against the stored gold, where the
    // trainer logged either (an import may have neither: nothing to compare).
    const store::StoredRollout &s = m_content.rollout;
    if (s.gold.empty() && s.rollout.answer.empty())
        return {};
    return TaskPresenter::forTask("").outcomeHtml(StoredExample(s.gold), StoredCompletion(s.rollout.completion, s.rollout.answer), {});
}

QString RolloutDetailView::componentsHtml() const
{
    QString h = QStringLiteral("<h4>%1</h4>")
                    .arg(m_content.configStep >= 0 ? tr("Reward components (config from step %1)").arg(m_content.configStep)
                                                   : tr("Reward components"));
    QVector<RewardHtml::ComponentRow> rows;
    for (const Component &c : m_content.components) {
        QString why = c.explained ? RewardText::explanation(c.explanation) : QString();
        if (c.explained && !std::isnan(c.storedValue) && std::abs(c.explanation.value - c.storedValue) > kRecomputeTolerance)
            why += QLatin1Char(' ') + tr("(explained now as %1; the run stored %2)")
                                          .arg(QString::number(c.explanation.value, 'f', 3), QString::number(c.storedValue, 'f', 3));
        RewardHtml::ComponentRow row{c.name, c.storedValue, c.weight, why};
        row.none = c.storedNone;
        rows.append(row);
    }
    h += RewardHtml::componentTable(rows, m_content.rollout.rollout.reward);
    if (m_content.judgeCalls > 0)
        h += QStringLiteral("<p><a href=\"#judge\">%1</a></p>")
                 .arg(tr("Judge calls (%1): the prompts, the replies and the verdicts").arg(m_content.judgeCalls));
    return h;
}

QString RolloutDetailView::rewardNotesHtml() const
{
    // What the components said beside their values when the rollout was scored (GRPO's
    // details_json): a Python function's log_extra values, a server's extra_logs, and why
    // a value is None.
    const nlohmann::json details = nlohmann::json::parse(m_content.rollout.rollout.detailsJson, nullptr, false);
    if (!details.is_object())
        return {};
    QString h;
    if (const auto extra = details.find("reward_extra"); extra != details.end() && extra->is_object() && !extra->empty()) {
        h += QStringLiteral("<h4>%1</h4><table cellspacing=\"0\" cellpadding=\"3\" border=\"1\"><tr><th>%2</th><th>%3</th><th>%4</th></tr>")
                 .arg(tr("Values the reward functions logged"), tr("Component"), tr("Name"), tr("Value"));
        for (auto c = extra->begin(); c != extra->end(); ++c) {
            if (!c->is_object())
                continue;
            for (auto v = c->begin(); v != c->end(); ++v)
                h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td></tr>")
                         .arg(QString::fromStdString(c.key()).toHtmlEscaped(), QString::fromStdString(v.key()).toHtmlEscaped(),
                              QString::fromStdString(v->is_string() ? v->get<std::string>()
                                                                    : v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace))
                                  .toHtmlEscaped());
        }
        h += QStringLiteral("</table>");
    }
    if (const auto errors = details.find("reward_errors"); errors != details.end() && errors->is_object())
        for (auto e = errors->begin(); e != errors->end(); ++e)
            if (e->is_string())
                h += QStringLiteral("<h4>%1</h4><pre>%2</pre>")
                         .arg(tr("Why %1 gave no value").arg(QString::fromStdString(e.key()).toHtmlEscaped()),
                              QString::fromStdString(e->get<std::string>()).toHtmlEscaped());
    return h;
}

QString RolloutDetailView::processHtml() const
{
    const nlohmann::json details = nlohmann::json::parse(m_content.rollout.rollout.detailsJson, nullptr, false);
    if (!details.is_object() || !details.contains("process") || !details["process"].is_object())
        return {};
    const nlohmann::json &p = details["process"];
    const auto numbers = [&](const char *key) {
        std::vector<double> v;
        if (p.contains(key) && p[key].is_array())
            for (const auto &x : p[key])
                v.push_back(x.is_number() ? x.get<double>() : NAN);
        return v;
    };
    const std::vector<double> scores = numbers("scores"), rewards = numbers("step_rewards"), adv = numbers("advantages");
    const double beta = p.value("beta", 0.0);
    const double outcome = m_content.rollout.rollout.advantage;
    QString h = QStringLiteral("<h4>%1</h4><p>%2</p>")
                    .arg(tr("Process rewards (dual-granularity GRPO)"),
                         tr("Each step's PRM score R, its step reward (σ(R) plus the format bonus), its process advantage "
                            "A_proc within the group at that step, and its tokens' advantage A_out + β·A_proc (A_out %1, "
                            "β %2).")
                             .arg(QString::number(outcome, 'f', 3), QString::number(beta, 'g', 3)));
    h += QStringLiteral("<table cellspacing=\"0\" cellpadding=\"3\" border=\"1\"><tr><th>%1</th><th>%2</th><th>%3</th>"
                        "<th>%4</th><th>%5</th></tr>")
             .arg(tr("Step"), tr("PRM score R"), tr("Step reward"), tr("A_proc"), tr("Token advantage"));
    for (size_t i = 0; i < scores.size(); ++i) {
        const auto cell = [](const std::vector<double> &v, size_t k) {
            return k < v.size() && std::isfinite(v[k]) ? QString::number(v[k], 'f', 3) : QStringLiteral("–");
        };
        const QString token = i < adv.size() ? QString::number(outcome + beta * adv[i], 'f', 3) : QStringLiteral("–");
        h += QStringLiteral("<tr><td align=\"center\">%1</td><td align=\"right\">%2</td><td align=\"right\">%3</td>"
                            "<td align=\"right\">%4</td><td align=\"right\">%5</td></tr>")
                 .arg(i + 1)
                 .arg(cell(scores, i), cell(rewards, i), cell(adv, i), token);
    }
    return h + QStringLiteral("</table>");
}

QString RolloutDetailView::completionHtml() const
{
    const store::StoredRollout &s = m_content.rollout;
    if (m_content.example && m_content.completion)
        return TaskPresenter::forTask(m_content.task).completionHtml(*m_content.example, *m_content.completion, m_content.thinking);
    return TaskPresenter::forTask("").completionHtml(StoredExample(s.gold), StoredCompletion(s.rollout.completion, s.rollout.answer),
                                                     m_content.thinking);
}

QString RolloutDetailView::inputHtml() const
{
    if (!m_content.example || !m_content.completion)
        return {};
    return TaskPresenter::forTask(m_content.task).inputHtml(*m_content.example, *m_content.completion);
}

QString RolloutDetailView::promptHtml() const
{
    const QString prompt = str(m_content.rollout.prompt);
    const bool cut = !m_promptExpanded && prompt.size() > kPromptPreview;
    QString h = QStringLiteral("<h4>%1</h4>").arg(tr("Prompt"));
    h += QStringLiteral("<p><tt>%1</tt></p>").arg(escape(cut ? prompt.left(kPromptPreview) + QStringLiteral(" …") : prompt));
    if (prompt.size() > kPromptPreview)
        h += QStringLiteral("<p><a href=\"#prompt\">%1</a></p>")
                 .arg(m_promptExpanded ? tr("Show less") : tr("Show all %1 characters").arg(prompt.size()));
    return h;
}

} // namespace rwb::widgets
