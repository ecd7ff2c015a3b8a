#include "judgedecisiondetailview.h"

#include "judgeagreement.h"
#include "judgedecisionmodel.h"
#include "judgeverdictsummary.h"
#include "rewardhtml.h"
#include "rewardvalue.h"

#include "store/runstore.h"

#include <QEvent>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace rwb::widgets {

namespace {

using RewardHtml::escape;

const char *const kFailureColour = "#c62828";
const char *const kAgreeColour = "#1a7f37";
const char *const kCurrentRowColour = "#e8f0fe";
// The completion is cut to this many characters until "show all" is clicked.
constexpr int kCompletionPreview = 800;
// The keys of each verdict shape, in the order the judge was asked for them; any other
// key follows in alphabetical order. "span" and "items" are shown elsewhere.
const char *const kFieldOrder[] = {"coverage",     "contradiction", "student_points", "reference_points",
                                   "coverage_thought", "contradiction_thought", "criterion", "category",
                                   "weight",       "met",           "score",          "c",
                                   "contribution", "explanation",   "rating",         "unit",
                                   "geval",        "geval_used",    "fallback"};

QString str(const std::string &s)
{
    return QString::fromStdString(s);
}

QJsonObject objectOf(const std::string &json)
{
    return QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
}

QString numberText(double v)
{
    return QString::number(v, 'g', 4);
}

// A JSON value as HTML: texts as written, lists of texts numbered.
QString jsonHtml(const QJsonValue &v)
{
    switch (v.type()) {
    case QJsonValue::String:
        return QStringLiteral("<span style=\"white-space:pre-wrap\">%1</span>").arg(escape(v.toString()));
    case QJsonValue::Double:
        return numberText(v.toDouble());
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Array: {
        const QJsonArray a = v.toArray();
        if (a.isEmpty())
            return QStringLiteral("[ ]");
        QString h = QStringLiteral("<ol style=\"margin:0\">");
        for (const QJsonValue &e : a)
            h += QStringLiteral("<li>%1</li>").arg(e.isString() ? escape(e.toString()) : jsonHtml(e));
        return h + QStringLiteral("</ol>");
    }
    case QJsonValue::Object:
        return escape(QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact)));
    default:
        return {};
    }
}

// "items[3]" → 3; −1 for anything else.
int itemIndex(const std::string &part)
{
    static const QRegularExpression re(QStringLiteral("^items\\[(\\d+)\\]$"));
    const QRegularExpressionMatch m = re.match(str(part));
    return m.hasMatch() ? m.captured(1).toInt() : -1;
}

} // namespace

JudgeDecisionDetailView::JudgeDecisionDetailView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("judgeDecisionDetail"));
    m_browser->setOpenLinks(false);
    m_browser->setTextInteractionFlags(Qt::TextBrowserInteraction);
    connect(m_browser, &QTextBrowser::anchorClicked, this, &JudgeDecisionDetailView::anchorClicked);
    layout->addWidget(m_browser);
    clear();
}

JudgeDecisionDetailView::Content JudgeDecisionDetailView::load(const store::RunStore &store, qint64 runId,
                                                              const JudgeDecisionRow &row)
{
    Content c;
    store::JudgeDecisionFilter f;
    f.reward = row.reward.toStdString();
    if (row.rolloutId > 0) {
        f.rolloutId = row.rolloutId;
    } else {
        f.evaluation = true;
        f.step = row.step;
        f.exampleId = row.exampleId.toStdString();
    }
    c.siblings = store.judgeDecisions(runId, f);
    const auto it = std::find_if(c.siblings.begin(), c.siblings.end(),
                                 [&](const store::StoredJudgeDecision &d) { return d.id == row.id; });
    if (it == c.siblings.end())
        throw std::runtime_error("judge decision " + std::to_string(row.id) + " is not in run " + std::to_string(runId) +
                                 " any more");
    c.decision = *it;
    std::string details;
    if (row.rolloutId > 0) {
        c.rollout = store.rollout(row.rolloutId);
        c.hasRollout = true;
        details = c.rollout.rollout.detailsJson;
    } else {
        for (const store::StoredEvalPrediction &p : store.evalPredictions(runId, row.step))
            if (p.prediction.exampleId == c.decision.exampleId) {
                c.prediction = p.prediction;
                c.hasPrediction = true;
                details = p.prediction.detailsJson;
                break;
            }
    }
    const QJsonObject d = objectOf(details);
    if (d.value(QLatin1String("coverage")).isDouble())
        c.referenceCoverage = d.value(QLatin1String("coverage")).toDouble();
    if (d.value(QLatin1String("consistency")).isDouble())
        c.referenceConsistency = d.value(QLatin1String("consistency")).toDouble();
    return c;
}

std::pair<qsizetype, qsizetype> JudgeDecisionDetailView::utf16Range(const std::string &utf8, qint64 byteBegin,
                                                                    qint64 byteEnd)
{
    if (byteBegin < 0 || byteEnd < 0 || byteBegin >= byteEnd)
        return {0, 0};
    const auto size = static_cast<qint64>(utf8.size());
    auto boundary = [&](qint64 b) {
        b = std::clamp<qint64>(b, 0, size);
        while (b > 0 && b < size && (static_cast<unsigned char>(utf8[static_cast<size_t>(b)]) & 0xC0) == 0x80)
            --b; // a continuation byte: back to the character's first byte
        return b;
    };
    const qint64 b = boundary(byteBegin), e = boundary(byteEnd);
    const qsizetype first = QString::fromUtf8(utf8.data(), b).size();
    const qsizetype last = first + QString::fromUtf8(utf8.data() + b, e - b).size();
    return {first, last};
}

void JudgeDecisionDetailView::showDecision(const Content &content)
{
    if (!m_hasContent || m_content.decision.id != content.decision.id)
        m_completionExpanded = false;
    m_content = content;
    m_hasContent = true;
    render();
}

void JudgeDecisionDetailView::clear()
{
    m_hasContent = false;
    m_content = {};
    m_html = QStringLiteral("<p style=\"color:gray\">%1</p>")
                 .arg(tr("Select a judge call to see the prompt it was sent, its raw reply, what was read from it and "
                         "the rollout it judged."));
    m_browser->setHtml(m_html);
}

QString JudgeDecisionDetailView::plainText() const
{
    return m_browser->toPlainText();
}

void JudgeDecisionDetailView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (m_hasContent)
            render();
        else
            clear();
    }
    QWidget::changeEvent(event);
}

void JudgeDecisionDetailView::anchorClicked(const QUrl &url)
{
    const QString s = url.toString();
    if (s == QLatin1String("#completion")) {
        m_completionExpanded = !m_completionExpanded;
        render();
    } else if (s == QLatin1String("#rollout") && m_content.hasRollout) {
        Q_EMIT rolloutRequested(m_content.rollout.id);
    }
}

void JudgeDecisionDetailView::render()
{
    m_html = headerHtml() + agreementHtml() + fieldsHtml() + itemsHtml() + replyHtml() + promptHtml() + judgedHtml();
    m_browser->setHtml(m_html);
}

QString JudgeDecisionDetailView::headerHtml() const
{
    const store::StoredJudgeDecision &s = m_content.decision;
    const judge::Decision &d = s.decision;
    QString target;
    if (s.rolloutId > 0 && m_content.hasRollout)
        target = tr("rollout %1 (group %2, sample %3)")
                     .arg(s.rolloutId)
                     .arg(m_content.rollout.rollout.groupIndex)
                     .arg(m_content.rollout.rollout.sampleIndex);
    else if (s.rolloutId > 0)
        target = tr("rollout %1").arg(s.rolloutId);
    else
        target = tr("evaluation example %1").arg(escape(str(s.exampleId)));
    QString title = tr("Judge call %1 · %2 · step %3 · %4").arg(s.id).arg(escape(str(d.reward))).arg(s.step).arg(target);
    if (!d.part.empty())
        title += QStringLiteral(" · ") + escape(str(d.part));
    QString h = QStringLiteral("<h3>%1</h3>").arg(title);

    JudgeDecisionRow row;
    row.error = str(d.error);
    row.hasReply = !d.reply.empty();
    row.verdict = JudgeVerdictSummary::read(d.verdict, d.reward);
    const bool none = RewardValue::isNone(d.value);
    h += QStringLiteral("<table cellpadding=2>");
    h += QStringLiteral("<tr><td>%1</td><td><b%2>%3</b></td><td>&nbsp;&nbsp;%4</td><td><b>%5</b></td></tr>")
             .arg(tr("Value"), none ? QStringLiteral(" style=\"color:%1\"").arg(QLatin1String(kFailureColour)) : QString(),
                  RewardValue::format(d.value, 3), tr("Verdict"), escape(JudgeDecisionModel::verdictText(row)));
    h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>&nbsp;&nbsp;%3</td><td>%4</td></tr>")
             .arg(tr("Latency"), tr("%1 s").arg(d.latencySeconds, 0, 'f', 2), tr("Tokens"),
                  tr("%1 prompt + %2 completion").arg(d.promptTokens).arg(d.completionTokens));
    h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>&nbsp;&nbsp;%3</td><td>%4</td></tr>")
             .arg(tr("Cost"), QString::number(d.cost, 'f', 5), tr("Cache"),
                  d.cacheHit ? tr("hit (answered from the cache)") : tr("miss (sent to the judge)"));
    h += QStringLiteral("<tr><td>%1</td><td>%2</td><td>&nbsp;&nbsp;%3</td><td>%4</td></tr>")
             .arg(tr("Attempts"), QString::number(d.attempts), tr("Backend"), escape(str(d.backend)));
    h += QStringLiteral("</table>");
    if (!d.error.empty()) {
        const QString what = d.reply.empty() ? tr("The call failed, so the reward is None for this rollout:")
                                             : tr("The reply could not be read, so the reward is None for this rollout:");
        h += QStringLiteral("<p style=\"color:%1\"><b>%2</b> %3</p>")
                 .arg(QLatin1String(kFailureColour), what, escape(str(d.error)));
    }
    return h;
}

QString JudgeDecisionDetailView::agreementHtml() const
{
    const judge::Decision &d = m_content.decision.decision;
    const JudgeVerdictSummary verdict = JudgeVerdictSummary::read(d.verdict);
    const GradedQuantity q = JudgeAgreement::quantity(str(d.reward), verdict, d.value);
    if (q == GradedQuantity::None)
        return {};
    const double reference = q == GradedQuantity::Coverage ? m_content.referenceCoverage : m_content.referenceConsistency;
    const QString quantity = q == GradedQuantity::Coverage ? tr("coverage") : tr("consistency");
    if (std::isnan(reference))
        return QStringLiteral("<p style=\"color:gray\">%1</p>")
            .arg(tr("The reference grader stored no %1 for this answer.").arg(quantity));
    const int ref = JudgeAgreement::label(q, reference);
    const int judged = d.error.empty() ? JudgeAgreement::label(q, d.value) : -1;
    QString verdictText;
    if (judged < 0)
        verdictText = tr("the judge gave None");
    else if (judged == ref)
        verdictText = QStringLiteral("<span style=\"color:%1\">%2</span>")
                          .arg(QLatin1String(kAgreeColour), tr("the judge agrees (%1)").arg(JudgeAgreement::labelName(q, judged)));
    else
        verdictText = QStringLiteral("<span style=\"color:%1\">%2</span>")
                          .arg(QLatin1String(kFailureColour),
                               tr("the judge disagrees: %1").arg(JudgeAgreement::labelName(q, judged)));
    return QStringLiteral("<p>%1</p>")
        .arg(tr("Reference grader: %1 %2 (%3) — %4")
                 .arg(quantity, numberText(reference), JudgeAgreement::labelName(q, ref), verdictText));
}

QString JudgeDecisionDetailView::fieldsHtml() const
{
    const judge::Decision &d = m_content.decision.decision;
    if (d.verdict.empty())
        return {};
    const QJsonObject o = objectOf(d.verdict);
    QStringList keys;
    for (const char *k : kFieldOrder)
        if (o.contains(QLatin1String(k)))
            keys << QLatin1String(k);
    for (const QString &k : o.keys())
        if (!keys.contains(k) && k != QLatin1String("span") && k != QLatin1String("items"))
            keys << k;
    if (keys.isEmpty())
        return {};
    QString h = QStringLiteral("<h4>%1</h4><table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\">")
                    .arg(tr("Read from the reply"));
    for (const QString &k : keys)
        h += QStringLiteral("<tr><td valign=top style=\"white-space:pre\"><tt>%1</tt></td><td>%2</td></tr>").arg(escape(k), jsonHtml(o.value(k)));
    return h + QStringLiteral("</table>");
}

QString JudgeDecisionDetailView::itemsHtml() const
{
    const judge::Decision &d = m_content.decision.decision;
    struct Item {
        int index = 0;
        QString criterion, category;
        double weight = 0.0;
        QString verdict;
        double contribution = std::numeric_limits<double>::quiet_NaN();
        bool current = false;
        bool failed = false;
    };
    std::vector<Item> items;
    double total = std::numeric_limits<double>::quiet_NaN();
    QString totalNote;
    auto categoryName = [](const QString &c) {
        if (c == QLatin1String("essential"))
            return tr("essential");
        if (c == QLatin1String("important"))
            return tr("important");
        if (c == QLatin1String("optional"))
            return tr("optional");
        if (c == QLatin1String("pitfall"))
            return tr("pitfall");
        if (c == QLatin1String("unspecified"))
            return tr("unspecified");
        return c;
    };
    auto verdictOf = [](const QJsonObject &o) {
        if (o.value(QLatin1String("met")).isBool())
            return o.value(QLatin1String("met")).toBool() ? tr("✓ met") : tr("✗ not met");
        if (o.value(QLatin1String("score")).isDouble())
            return tr("score %1/10").arg(numberText(o.value(QLatin1String("score")).toDouble()));
        const double c = o.value(QLatin1String("c")).toDouble();
        return c >= 0.5 ? tr("✓ met") : tr("✗ not met");
    };
    const QJsonObject own = objectOf(d.verdict);
    if (own.value(QLatin1String("items")).isArray()) {
        // All items in one call.
        int k = 0;
        for (const QJsonValue &v : own.value(QLatin1String("items")).toArray()) {
            const QJsonObject o = v.toObject();
            items.push_back({++k, o.value(QLatin1String("criterion")).toString(),
                             categoryName(o.value(QLatin1String("category")).toString()),
                             o.value(QLatin1String("weight")).toDouble(), verdictOf(o),
                             o.value(QLatin1String("contribution")).toDouble(), false, false});
        }
        total = own.value(QLatin1String("score")).toDouble(total);
        totalNote = tr("the rubric's score: Σ weight·verdict / Σ positive weights, clamped to 0–1");
    } else if (itemIndex(d.part) >= 0) {
        // One call per item: this rollout's calls of the same reward.
        double sum = 0.0;
        bool complete = true;
        for (const store::StoredJudgeDecision &s : m_content.siblings) {
            const int k = itemIndex(s.decision.part);
            if (k < 0)
                continue;
            const QJsonObject o = objectOf(s.decision.verdict);
            Item item;
            item.index = k + 1;
            item.current = s.id == m_content.decision.id;
            if (!s.decision.error.empty() || o.isEmpty()) {
                item.failed = true;
                item.verdict = RewardValue::noneText();
                complete = false;
                item.criterion = tr("(no verdict: %1)").arg(str(s.decision.error));
            } else {
                item.criterion = o.value(QLatin1String("criterion")).toString();
                item.category = categoryName(o.value(QLatin1String("category")).toString());
                item.weight = o.value(QLatin1String("weight")).toDouble();
                item.verdict = verdictOf(o);
                item.contribution = o.value(QLatin1String("contribution")).toDouble();
                sum += item.contribution;
            }
            items.push_back(item);
        }
        std::sort(items.begin(), items.end(), [](const Item &a, const Item &b) { return a.index < b.index; });
        total = complete ? std::clamp(sum, 0.0, 1.0) : std::numeric_limits<double>::quiet_NaN();
        totalNote = complete ? tr("Σ of the items' contributions, clamped to 0–1")
                             : tr("None: an item has no verdict, and a score from the other items would not be honest");
    }
    if (items.empty())
        return {};
    QString h = QStringLiteral("<h4>%1</h4>").arg(tr("Rubric items"));
    h += QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\">");
    h += QStringLiteral("<tr><th>#</th><th align=left>%1</th><th>%2</th><th>%3</th><th>%4</th><th>%5</th></tr>")
             .arg(tr("Criterion"), tr("Category"), tr("Weight"), tr("Verdict"), tr("Contribution"));
    for (const Item &i : items) {
        const QString style = i.current ? QStringLiteral(" style=\"background:%1\"").arg(QLatin1String(kCurrentRowColour))
                                        : QString();
        const QString verdictStyle =
            i.failed ? QStringLiteral(" style=\"color:%1\"").arg(QLatin1String(kFailureColour)) : QString();
        h += QStringLiteral("<tr%1><td align=right>%2</td><td>%3</td><td>%4</td><td align=right>%5</td>"
                            "<td%6>%7</td><td align=right>%8</td></tr>")
                 .arg(style)
                 .arg(i.index)
                 .arg(escape(i.criterion), escape(i.category), i.failed ? QString() : numberText(i.weight), verdictStyle,
                      escape(i.verdict), i.failed ? QStringLiteral("—") : QString::number(i.contribution, 'f', 3));
    }
    h += QStringLiteral("<tr><td></td><td colspan=4><b>%1</b> <span style=\"color:gray\">(%2)</span></td>"
                        "<td align=right><b>%3</b></td></tr></table>")
             .arg(tr("Total"), escape(totalNote), RewardValue::format(total, 3));
    return h;
}

QString JudgeDecisionDetailView::replyHtml() const
{
    const judge::Decision &d = m_content.decision.decision;
    QString h = QStringLiteral("<h4>%1</h4>").arg(tr("Reply"));
    if (d.reply.empty())
        return h + QStringLiteral("<p style=\"color:gray\">%1</p>").arg(tr("No reply: the call failed."));
    const QString reply = str(d.reply);
    const JudgeVerdictSummary verdict = JudgeVerdictSummary::read(d.verdict);
    const auto [first, last] = utf16Range(d.reply, verdict.spanBegin, verdict.spanEnd);
    QString body;
    if (last > first)
        body = escape(reply.left(first)) +
               QStringLiteral("<span style=\"background:%1\">%2</span>")
                   .arg(QLatin1String(kSpanColour), escape(reply.mid(first, last - first))) +
               escape(reply.mid(last));
    else
        body = escape(reply);
    h += QStringLiteral("<p style=\"white-space:pre-wrap; font-family:monospace\">%1</p>").arg(body);
    if (last > first) {
        const QString form = verdict.spanForm == QLatin1String("fenced")     ? tr("in a code fence")
                             : verdict.spanForm == QLatin1String("embedded") ? tr("with other text around it")
                                                                             : tr("the whole reply");
        h += QStringLiteral("<p style=\"color:gray\">%1</p>")
                 .arg(tr("Highlighted: the JSON object the verdict was read from (bytes %1–%2, %3).")
                          .arg(verdict.spanBegin)
                          .arg(verdict.spanEnd)
                          .arg(form));
    }
    return h;
}

QString JudgeDecisionDetailView::promptHtml() const
{
    const judge::Decision &d = m_content.decision.decision;
    const QJsonObject request = objectOf(d.request);
    QString h = QStringLiteral("<h4>%1</h4>").arg(tr("Prompt"));
    if (request.isEmpty())
        return h + QStringLiteral("<p style=\"color:gray\">%1</p>").arg(tr("The stored request could not be read."));
    QStringList sampling;
    if (request.contains(QLatin1String("model")))
        sampling << tr("model %1").arg(request.value(QLatin1String("model")).toString());
    for (const char *k : {"temperature", "top_p", "max_tokens", "n", "seed", "top_logprobs"})
        if (request.value(QLatin1String(k)).isDouble())
            sampling << QStringLiteral("%1 %2").arg(QLatin1String(k), numberText(request.value(QLatin1String(k)).toDouble()));
    const QJsonObject format = request.value(QLatin1String("response_format")).toObject();
    if (!format.isEmpty()) {
        QString f = format.value(QLatin1String("type")).toString();
        const QString schema = format.value(QLatin1String("json_schema")).toObject().value(QLatin1String("name")).toString();
        if (!schema.isEmpty())
            f += QStringLiteral(" (%1)").arg(schema);
        sampling << QStringLiteral("response_format %1").arg(f);
    }
    h += QStringLiteral("<p style=\"color:gray\">%1</p>").arg(escape(sampling.join(QStringLiteral(" · "))));
    for (const QJsonValue &m : request.value(QLatin1String("messages")).toArray()) {
        const QJsonObject o = m.toObject();
        const QString role = o.value(QLatin1String("role")).toString();
        const QString name = role == QLatin1String("system")      ? tr("System")
                             : role == QLatin1String("user")      ? tr("User")
                             : role == QLatin1String("assistant") ? tr("Assistant")
                                                                  : role;
        h += QStringLiteral("<p><b>%1</b></p><p style=\"white-space:pre-wrap; font-family:monospace; "
                            "margin-left:12px\">%2</p>")
                 .arg(escape(name), escape(o.value(QLatin1String("content")).toString()));
    }
    return h;
}

QString JudgeDecisionDetailView::judgedHtml() const
{
    QString h;
    auto row = [](const QString &name, const QString &valueHtml) {
        return QStringLiteral("<tr><td valign=top>%1</td><td>%2</td></tr>").arg(name, valueHtml);
    };
    if (m_content.hasRollout) {
        const store::StoredRollout &s = m_content.rollout;
        const store::Rollout &r = s.rollout;
        h += QStringLiteral("<h4>%1 &nbsp;<a href=\"#rollout\">%2</a></h4>")
                 .arg(tr("The rollout judged"), tr("open in the rollout browser"));
        h += QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\">");
        h += row(tr("Answer"), escape(str(r.answer)));
        h += row(tr("Gold"), escape(str(s.gold)));
        QStringList parts;
        const QJsonObject values = objectOf(r.rewardsJson);
        for (auto it = values.begin(); it != values.end(); ++it)
            parts << QStringLiteral("%1 %2").arg(escape(it.key()),
                                                  RewardValue::format(it.value().isDouble() ? it.value().toDouble()
                                                                                            : std::numeric_limits<double>::quiet_NaN(),
                                                                      3));
        h += row(tr("Reward"), QStringLiteral("<b>%1</b> (%2)").arg(RewardValue::format(r.reward, 3),
                                                                      parts.join(QStringLiteral(", "))));
        const QString completion = str(r.completion);
        const bool cut = !m_completionExpanded && completion.size() > kCompletionPreview;
        QString text = QStringLiteral("<span style=\"white-space:pre-wrap\">%1</span>")
                           .arg(escape(cut ? completion.left(kCompletionPreview) + QStringLiteral(" …") : completion));
        if (completion.size() > kCompletionPreview)
            text += QStringLiteral("<br><a href=\"#completion\">%1</a>")
                        .arg(m_completionExpanded ? tr("Show less") : tr("Show all %1 characters").arg(completion.size()));
        h += row(tr("Completion"), text);
        h += QStringLiteral("</table>");
    } else if (m_content.hasPrediction) {
        const store::EvalPrediction &p = m_content.prediction;
        h += QStringLiteral("<h4>%1</h4>").arg(tr("The evaluation prediction judged"));
        h += QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\">");
        h += row(tr("Example"), escape(str(p.exampleId)));
        h += row(tr("Prediction"), QStringLiteral("<span style=\"white-space:pre-wrap\">%1</span>").arg(escape(str(p.prediction))));
        h += row(tr("Gold"), escape(str(p.gold)));
        h += row(tr("Correct"), p.correct ? tr("yes") : tr("no"));
        h += QStringLiteral("</table>");
    }
    return h;
}

} // namespace rwb::widgets
