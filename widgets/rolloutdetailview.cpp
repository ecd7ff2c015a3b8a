#include "rolloutdetailview.h"
#include "storedrewardconfig.h"

#include "data/jsonl.h"
#include "reward/compositereward.h"
#include "reward/extraction.h"
#include "reward/registry.h"
#include "reward/rewardconfig.h"
#include "rewardhtml.h"
#include "rewardtext.h"
#include "store/runstore.h"
#include "text/lcs.h"
#include "text/normalize.h"
#include "text/utf8.h"

#include <QEvent>
#include <QJsonDocument>
#include <QJsonObject>
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
// Colours of the completion's thinking-format tags and of the answer block.
const char *const kTagColour = "#7a3db8";
const char *const kAnswerBlockColour = "#dde9ff";
// Advantage colours.
const char *const kPositiveColour = "#1a7f37";
const char *const kNegativeColour = "#c62828";
// A stored component value and the one recomputed now differ when further apart than this.
constexpr double kRecomputeTolerance = 1e-6;

QString str(const std::string &s)
{
    return QString::fromStdString(s);
}

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
    c.runName = str(store.run(r.runId).name);

    // The e-mail as the rewards saw it (GRPO records it in the prompt's metadata).
    store.query("SELECT p.meta_json FROM rollouts r JOIN prompts p ON p.id = r.prompt WHERE r.id = " +
                    std::to_string(rolloutId),
                [&](const std::vector<std::string> &, const std::vector<store::SqlValue> &values) {
                    const QJsonObject meta =
                        QJsonDocument::fromJson(QByteArray::fromStdString(values.at(0).bytes)).object();
                    c.senderEmail = meta.value(QStringLiteral("sender_email")).toString();
                    c.emailText = meta.value(QStringLiteral("email_text")).toString();
                    return false;
                });

    // The config in force: the last version recorded at or before the rollout's step.
    const std::vector<store::RewardConfigVersion> versions = store.rewardConfigs(r.runId);
    const store::RewardConfigVersion *inForce = nullptr;
    for (const auto &v : versions)
        if (v.step <= r.step)
            inForce = &v;
    const QJsonObject stored = QJsonDocument::fromJson(QByteArray::fromStdString(r.rollout.rewardsJson)).object();
    auto storedValue = [&](const QString &name) {
        return stored.contains(name) ? stored.value(name).toDouble() : std::numeric_limits<double>::quiet_NaN();
    };
    if (!inForce) {
        c.problem = tr("The run recorded no reward config at or before step %1.").arg(r.step);
        for (auto it = stored.begin(); it != stored.end(); ++it)
            c.components.push_back({it.key(), it.value().toDouble(), 0.0, false, {}});
        return c;
    }
    c.configStep = inForce->step;
    const std::string source = "reward config of run " + std::to_string(r.runId) + " at step " + std::to_string(inForce->step);
    try {
        reward::RewardConfig config = reward::parseRewardConfig(inForce->configJson, source, reward::Registry::builtin());
        c.thinking = config.thinking;
        const reward::CompositeReward composite(config, source);
        const reward::ExtractionPrompt prompt(c.senderEmail.toStdString(), c.emailText.toStdString(), r.gold);
        const reward::ExtractionAnswer answer(r.rollout.completion, c.thinking);
        const std::vector<reward::Explanation> explanations = composite.explain(prompt, answer);
        for (size_t i = 0; i < composite.size(); ++i) {
            const QString name = str(composite.componentName(i));
            c.components.push_back({name, storedValue(name), composite.weight(i), true, explanations[i]});
        }
        if (c.senderEmail.isEmpty() && c.emailText.isEmpty())
            c.problem = tr("The prompt has no recorded e-mail, so rewards that look at it are explained without it.");
    } catch (const std::exception &e) {
        // Show what was stored, without explanations: the config may name a reward this build lacks.
        c.problem = tr("The reward config could not be rebuilt to explain the values: %1").arg(str(e.what()));
        const StoredRewardConfig stored = readStoredRewardConfig(inForce->configJson);
        c.thinking = stored.thinking;
        for (int i = 0; i < stored.names.size(); ++i)
            c.components.push_back({stored.names[i], storedValue(stored.names[i]), stored.weights[i], false, {}});
    }
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
    }
}

void RolloutDetailView::render()
{
    m_html = headerHtml() + answerHtml() + componentsHtml() + completionHtml() + promptHtml();
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
    h += QStringLiteral("<tr><td>%1</td><td><b>%2</b></td>").arg(tr("Reward (weighted total)"), QString::number(r.reward, 'f', 3));
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
    if (!m_content.problem.isEmpty())
        h += QStringLiteral("<p style=\"color:%1\">%2</p>").arg(QLatin1String(kNegativeColour), escape(m_content.problem));
    return h;
}

QString RolloutDetailView::answerHtml() const
{
    const store::StoredRollout &s = m_content.rollout;
    const std::string &answer = s.rollout.answer;
    const std::string &gold = s.gold;
    QString h = QStringLiteral("<h4>%1</h4>").arg(tr("Answer against gold"));
    h += QStringLiteral("<p>%1 %2 %3</p>")
             .arg(QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(RewardHtml::kSameColour), tr("in both")),
                  QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(RewardHtml::kExtraColour), tr("only in the answer")),
                  QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(RewardHtml::kMissingColour), tr("missing from the answer")));
    h += QStringLiteral("<table cellpadding=2>");
    h += pairRows(tr("Answer"), tr("Gold"), markedPair(answer, gold));
    const std::string na = text::normalize(answer), ng = text::normalize(gold);
    if (na != answer || ng != gold)
        h += pairRows(tr("Normalized answer"), tr("Normalized gold"), markedPair(na, ng));
    for (const Component &c : m_content.components) {
        const reward::Explanation &e = c.explanation;
        if (!c.explained || e.reward != "marker" || (e.markersRemovedFromAnswer.empty() && e.markersRemovedFromGold.empty()))
            continue;
        auto list = [](const std::vector<std::string> &items) {
            QStringList out;
            for (const auto &i : items)
                out << escape(str(i));
            return out.isEmpty() ? QStringLiteral("—") : out.join(QStringLiteral(" "));
        };
        h += pairRows(tr("Answer without markers"), tr("Gold without markers"),
                      {RewardHtml::markSpan(e.answer, e.answerSpan, RewardHtml::kSameColour, RewardHtml::kExtraColour),
                       RewardHtml::markSpan(e.gold, e.goldSpan, RewardHtml::kSameColour, RewardHtml::kMissingColour)});
        h += QStringLiteral("<tr><td>%1</td><td>%2 / %3</td></tr>")
                 .arg(tr("Markers removed (answer / gold)"), list(e.markersRemovedFromAnswer), list(e.markersRemovedFromGold));
    }
    h += QStringLiteral("</table>");
    return h;
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
        rows.append({c.name, c.storedValue, c.weight, why});
    }
    h += RewardHtml::componentTable(rows, m_content.rollout.rollout.reward);
    return h;
}

QString RolloutDetailView::completionHtml() const
{
    const std::string &text = m_content.rollout.rollout.completion;
    // Per byte: 0 plain, 1 a thinking-format tag, 2 inside the answer block.
    std::vector<char> kind(text.size(), 0);
    if (m_content.thinking) {
        const reward::AnswerBlock block = reward::answerBlock(text, true);
        if (block.found)
            std::fill(kind.begin() + static_cast<std::ptrdiff_t>(block.begin),
                      kind.begin() + static_cast<std::ptrdiff_t>(block.begin + block.length), 2);
    }
    for (std::string_view tag : {reward::kThinkingOpenTag, reward::kThinkingCloseTag, reward::kAnswerOpenTag, reward::kAnswerCloseTag})
        for (size_t pos = text.find(tag); pos != std::string::npos; pos = text.find(tag, pos + tag.size()))
            std::fill(kind.begin() + static_cast<std::ptrdiff_t>(pos),
                      kind.begin() + static_cast<std::ptrdiff_t>(pos + tag.size()), 1);
    QString body;
    size_t start = 0;
    for (size_t i = 1; i <= text.size(); ++i) {
        if (i < text.size() && kind[i] == kind[start])
            continue;
        // Runs split only at tag or block edges, which are ASCII: each run is whole UTF-8.
        const QString part = escape(str(text.substr(start, i - start)));
        if (kind[start] == 1)
            body += QStringLiteral("<b><span style=\"color:%1\">%2</span></b>").arg(QLatin1String(kTagColour), part);
        else if (kind[start] == 2)
            body += QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(kAnswerBlockColour), part);
        else
            body += part;
        start = i;
    }
    if (text.empty())
        body = QStringLiteral("<i>∅</i>");
    QString h = QStringLiteral("<h4>%1</h4>").arg(tr("Completion"));
    h += QStringLiteral("<p><tt>%1</tt></p>").arg(body);
    h += QStringLiteral("<p>%1 <tt>%2</tt></p>")
             .arg(tr("Extracted answer:"), m_content.rollout.rollout.answer.empty() ? QStringLiteral("∅")
                                                                                     : escape(str(m_content.rollout.rollout.answer)));
    return h;
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
