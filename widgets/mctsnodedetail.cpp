#include "mctsnodedetail.h"

#include "mctsoutcome.h"

#include <QEvent>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace rwb::widgets {

namespace {

// The mark of a gold passage (the question's gold chain retrieved it).
const char *const kGoldMark = "★";

QString esc(const std::string &s)
{
    return QString::fromStdString(s).toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>"));
}

std::string trimmed(std::string s)
{
    const auto space = [](unsigned char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    while (!s.empty() && space(static_cast<unsigned char>(s.back())))
        s.pop_back();
    size_t i = 0;
    while (i < s.size() && space(static_cast<unsigned char>(s[i])))
        ++i;
    return s.substr(i);
}

} // namespace

MctsNodeDetail::MctsNodeDetail(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_browser = new QTextBrowser(this);
    m_browser->setObjectName(QStringLiteral("mctsNodeDetailText"));
    m_browser->setOpenLinks(false);
    layout->addWidget(m_browser);
    clear();
}

void MctsNodeDetail::setPrmScores(std::map<int, double> scores)
{
    m_prmScores = std::move(scores);
}

void MctsNodeDetail::clear()
{
    m_record.reset();
    m_nodeId = -1;
    m_html = QStringLiteral("<p style=\"color:#607d8b\">%1</p>")
                 .arg(tr("Click a node of the tree to see its steps, passages and answer.").toHtmlEscaped());
    m_browser->setHtml(m_html);
}

QString MctsNodeDetail::plainText() const
{
    return m_browser->toPlainText();
}

void MctsNodeDetail::showNode(std::shared_ptr<const mcts::SearchRecord> record, const mcts::SearchTree &tree,
                              int iteration, int nodeId)
{
    if (!record || nodeId < 0 || nodeId >= static_cast<int>(record->tree.nodes().size())) {
        clear();
        return;
    }
    m_record = std::move(record);
    m_iteration = iteration;
    m_nodeId = nodeId;
    m_html = render(tree);
    m_browser->setHtml(m_html);
}

void MctsNodeDetail::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange) {
        if (m_record) {
            const bool last = m_iteration >= static_cast<int>(m_record->iterations.size());
            try {
                m_html = render(last ? m_record->tree : m_record->treeAt(m_iteration));
            } catch (const std::exception &) {
                m_html = render(m_record->tree);
            }
            m_browser->setHtml(m_html);
        } else {
            clear();
        }
    }
    QWidget::changeEvent(event);
}

task::Trajectory MctsNodeDetail::parseStep(const std::string &step)
{
    task::Trajectory t = task::parseTrajectory(step);
    if (t.wellFormed || t.hops.empty())
        return t;
    // Hops that run to the end of the text: finished with a stand-in answer they parse
    // whole, and only then.
    task::Trajectory whole = task::parseTrajectory(step + "<step></step><answer></answer>");
    if (!whole.wellFormed || whole.hops.size() != t.hops.size())
        return t;
    whole.finalStep.clear();
    whole.answer.reset();
    return whole;
}

std::vector<MctsNodeDetail::Passage> MctsNodeDetail::splitPassages(const std::string &retrieval,
                                                                   const std::vector<std::string> &ids,
                                                                   const std::vector<std::string> &gold)
{
    const auto isGold = [&](const std::string &id) {
        return std::find(gold.begin(), gold.end(), id) != gold.end();
    };
    std::vector<std::string> lines;
    size_t start = 0;
    while (start <= retrieval.size()) {
        const size_t end = std::min(retrieval.find('\n', start), retrieval.size());
        std::string line = trimmed(retrieval.substr(start, end - start));
        if (!line.empty())
            lines.push_back(std::move(line));
        start = end + 1;
    }
    std::vector<Passage> out;
    // By name: each id on the line that mentions it.
    std::vector<bool> used(lines.size(), false);
    bool allNamed = !ids.empty();
    for (const std::string &id : ids) {
        Passage p{id, {}, isGold(id)};
        for (size_t i = 0; i < lines.size(); ++i) {
            if (!used[i] && lines[i].find(id) != std::string::npos) {
                used[i] = true;
                p.text = lines[i];
                // The id is shown beside the text already: "[kb-O001] …", "kb-O001: …" lose it.
                for (const std::string &prefix : {"[" + id + "]", id + ":"})
                    if (p.text.starts_with(prefix) && p.text.size() > prefix.size())
                        p.text = trimmed(p.text.substr(prefix.size()));
                break;
            }
        }
        allNamed = allNamed && !p.text.empty();
        out.push_back(std::move(p));
    }
    if (allNamed)
        return out;
    // In order, one line each.
    if (!ids.empty() && lines.size() == ids.size()) {
        for (size_t i = 0; i < ids.size(); ++i)
            out[i].text = lines[i];
        return out;
    }
    // The ids as they are, then the block as a whole.
    for (Passage &p : out)
        p.text.clear();
    const std::string block = trimmed(retrieval);
    if (!block.empty())
        out.push_back({std::string(), block, false});
    return out;
}

QString MctsNodeDetail::passagesHtml(const std::string &retrieval, const std::vector<std::string> &ids) const
{
    const std::vector<Passage> passages = splitPassages(retrieval, ids, m_record->goldPassages);
    if (passages.empty())
        return QStringLiteral("<i>%1</i>").arg(tr("none").toHtmlEscaped());
    QString html;
    for (const Passage &p : passages) {
        html += QStringLiteral("<div style=\"margin-bottom:3px\">");
        if (!p.id.empty()) {
            html += QStringLiteral("<b>%1</b>").arg(esc(p.id));
            if (p.gold)
                html += QStringLiteral(" <span style=\"color:#b8860b\"><b>%1 %2</b></span>")
                            .arg(QString::fromUtf8(kGoldMark), tr("gold").toHtmlEscaped());
            if (!p.text.empty())
                html += QStringLiteral(" · ");
        }
        if (!p.text.empty())
            html += QStringLiteral("<span style=\"color:#455a64\">%1</span>").arg(esc(p.text));
        html += QStringLiteral("</div>");
    }
    return html;
}

QString MctsNodeDetail::stepHtml(const mcts::Node &node) const
{
    const task::Trajectory t = parseStep(node.step);
    QString rows;
    const auto row = [&rows](const QString &label, const QString &html) {
        rows += QStringLiteral("<tr><td valign=\"top\" style=\"color:#607d8b; padding-right:8px\"><b>%1</b></td>"
                               "<td valign=\"top\">%2</td></tr>")
                    .arg(label.toHtmlEscaped(), html);
    };
    for (const task::TrajectoryHop &hop : t.hops) {
        row(tr("Step"), esc(trimmed(hop.step)));
        row(tr("Sub-query"), esc(trimmed(hop.subquery)));
        row(tr("Retrieved"), passagesHtml(hop.retrieval, node.retrieved));
        row(tr("Sub-answer"), esc(trimmed(hop.subanswer)));
    }
    if (!t.finalStep.empty())
        row(tr("Step"), esc(trimmed(t.finalStep)));
    if (t.answer)
        row(tr("Answer"), QStringLiteral("<b>%1</b>").arg(esc(*t.answer)));
    if (t.hops.empty() && !node.retrieved.empty())
        row(tr("Retrieved"), passagesHtml(std::string(), node.retrieved));
    QString html = QStringLiteral("<table cellspacing=\"0\" cellpadding=\"1\">%1</table>").arg(rows);
    if (!t.wellFormed && !node.step.empty())
        html += QStringLiteral("<p style=\"color:%1\">%2</p><pre style=\"white-space:pre-wrap\">%3</pre>")
                    .arg(mctsOutcomeColour(MctsOutcome::Wrong).name(),
                         tr("The step does not follow the format: %1").arg(QString::fromStdString(t.problem)).toHtmlEscaped(),
                         QString::fromStdString(node.step).toHtmlEscaped());
    return html;
}

QString MctsNodeDetail::render(const mcts::SearchTree &tree) const
{
    const mcts::SearchRecord &r = *m_record;
    const bool present = m_nodeId < static_cast<int>(tree.nodes().size());
    const mcts::Node &n = present ? tree.node(m_nodeId) : r.tree.node(m_nodeId);
    QString html;

    // Heading and statistics.
    html += QStringLiteral("<h3 style=\"margin-bottom:2px\">%1</h3>")
                .arg((m_nodeId == mcts::SearchTree::kRoot ? tr("Root")
                                                           : tr("Node #%1 · depth %2").arg(m_nodeId).arg(n.depth))
                         .toHtmlEscaped());
    QStringList stats;
    if (m_nodeId != mcts::SearchTree::kRoot)
        stats << tr("created at iteration %1").arg(n.iterationCreated);
    if (present) {
        stats << tr("at iteration %1: N %2 · Q %3 · W %4")
                     .arg(m_iteration)
                     .arg(n.visits)
                     .arg(mctsNumber(n.q()), mctsNumber(n.valueSum));
    }
    if (m_nodeId != mcts::SearchTree::kRoot)
        stats << tr("prior P %1").arg(mctsNumber(n.prior));
    if (const auto prm = m_prmScores.find(m_nodeId); prm != m_prmScores.end())
        stats << tr("PRM score R %1 (σ(R) %2)").arg(mctsNumber(prm->second), mctsNumber(1.0 / (1.0 + std::exp(-prm->second))));
    if (n.tokens > 0)
        stats << tr("%1 tokens, log-prob %2 (%3 per token)")
                     .arg(n.tokens)
                     .arg(mctsNumber(n.logProb, 2), mctsNumber(n.logProb / n.tokens, 3));
    html += QStringLiteral("<p style=\"margin-top:0\">%1</p>").arg(stats.join(QStringLiteral(" · ")).toHtmlEscaped());
    if (!present)
        html += QStringLiteral("<p style=\"color:%1\">%2</p>")
                    .arg(mctsOutcomeColour(MctsOutcome::Partial).name(),
                         tr("This node does not exist yet at iteration %1: it is created at iteration %2. Its texts are "
                            "shown from the final tree.")
                             .arg(m_iteration)
                             .arg(n.iterationCreated)
                             .toHtmlEscaped());

    // A terminal node's answer against the gold.
    if (n.terminal) {
        const task::Trajectory t = parseStep(n.step);
        const std::string answer = !n.answer.empty() ? n.answer : t.answer.value_or(std::string());
        const double em = task::exactMatch(answer, r.goldAnswer);
        const double f1 = task::answerF1(answer, r.goldAnswer);
        const MctsOutcome outcome = mctsOutcome(n);
        const QString colour = mctsOutcomeColour(outcome).name();
        const QString verdict = mctsOutcomeName(outcome);
        html += QStringLiteral("<table style=\"border:2px solid %1\" cellpadding=\"4\"><tr><td>").arg(colour);
        html += QStringLiteral("<b style=\"color:%1\">%2</b><br>").arg(colour, verdict.toHtmlEscaped());
        html += tr("Answer: %1").arg(QStringLiteral("<b>%1</b>").arg(answer.empty() ? tr("(none)").toHtmlEscaped() : esc(answer)));
        html += QStringLiteral("<br>");
        html += tr("Gold answer: %1").arg(QStringLiteral("<b>%1</b>").arg(esc(r.goldAnswer)));
        html += QStringLiteral("<br>");
        html += tr("Exact match %1 · F1 %2 · value %3")
                    .arg(mctsNumber(em, 0), mctsNumber(f1, 3), mctsNumber(n.terminalValue, 3))
                    .toHtmlEscaped();
        html += QStringLiteral("</td></tr></table>");
    }

    // The question.
    html += QStringLiteral("<h4 style=\"margin-bottom:2px\">%1</h4>").arg(tr("Question").toHtmlEscaped());
    html += QStringLiteral("<p style=\"margin-top:0\">%1").arg(esc(r.question));
    QStringList gold;
    for (const std::string &g : r.goldPassages)
        gold << QString::fromStdString(g);
    html += QStringLiteral("<br><span style=\"color:#607d8b\">%1</span></p>")
                .arg(tr("Gold answer: %1 · gold passages: %2")
                         .arg(QString::fromStdString(r.goldAnswer),
                              gold.isEmpty() ? tr("none") : gold.join(QStringLiteral(", ")))
                         .toHtmlEscaped());

    // The way down: the ancestors' steps, then the node's own.
    std::vector<int> chain;
    for (int id = n.parent; id > mcts::SearchTree::kRoot; id = r.tree.node(id).parent)
        chain.push_back(id);
    std::reverse(chain.begin(), chain.end());
    if (!chain.empty()) {
        html += QStringLiteral("<h4 style=\"margin-bottom:2px\">%1</h4>")
                    .arg(tr("History (root → this node)").toHtmlEscaped());
        int k = 1;
        for (int id : chain) {
            const mcts::Node &a = id < static_cast<int>(tree.nodes().size()) ? tree.node(id) : r.tree.node(id);
            html += QStringLiteral("<p style=\"margin-bottom:0\"><b>%1</b> <span style=\"color:#607d8b\">%2</span></p>")
                        .arg(tr("Step %1").arg(k++).toHtmlEscaped(),
                             tr("#%1 · N %2 · Q %3 · P %4").arg(id).arg(a.visits).arg(mctsNumber(a.q()), mctsNumber(a.prior)).toHtmlEscaped());
            html += stepHtml(a);
        }
    }
    if (m_nodeId != mcts::SearchTree::kRoot) {
        html += QStringLiteral("<h4 style=\"margin-bottom:2px\">%1</h4>").arg(tr("This step").toHtmlEscaped());
        html += stepHtml(n);
    }
    return html;
}

} // namespace rwb::widgets
