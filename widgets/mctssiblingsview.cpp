#include "mctssiblingsview.h"

#include "mctsnodedetail.h"
#include "mctsoutcome.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace rwb::widgets {

namespace {

// A column's width in average character widths: room for a step of a few lines.
constexpr int kColumnChars = 38;

QString esc(const std::string &s)
{
    return QString::fromStdString(s).trimmed().toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1String("<br>"));
}

} // namespace

MctsSiblingsView::MctsSiblingsView(QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("mctsSiblingsTitle"));
    m_title->setWordWrap(true);
    layout->addWidget(m_title);
    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("mctsSiblingsScroll"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_strip = new QWidget(m_scroll);
    m_stripLayout = new QHBoxLayout(m_strip);
    m_stripLayout->setContentsMargins(0, 0, 0, 0);
    m_stripLayout->setSpacing(6);
    m_stripLayout->addStretch(1);
    m_scroll->setWidget(m_strip);
    layout->addWidget(m_scroll, 1);
    clear();
}

void MctsSiblingsView::clear()
{
    m_record.reset();
    m_shown.clear();
    m_nodeId = -1;
    rebuild();
}

void MctsSiblingsView::showSiblings(std::shared_ptr<const mcts::SearchRecord> record, const mcts::SearchTree &tree,
                                    const mcts::SearchTree *before, int iteration, int nodeId)
{
    m_shown.clear();
    m_record = std::move(record);
    m_iteration = iteration;
    m_nodeId = nodeId;
    if (m_record && nodeId > mcts::SearchTree::kRoot && nodeId < static_cast<int>(tree.nodes().size())) {
        const int parent = tree.node(nodeId).parent;
        for (int id : tree.node(parent).children) {
            Column c;
            c.id = id;
            c.node = tree.node(id);
            if (before && id < static_cast<int>(before->nodes().size())) {
                c.hasScore = true;
                c.score = before->puct(id, m_record->params.cPuct).score;
            }
            m_shown.push_back(std::move(c));
        }
    }
    rebuild();
}

void MctsSiblingsView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        rebuild();
    QWidget::changeEvent(event);
}

QString MctsSiblingsView::columnText(int column) const
{
    return m_columns.at(static_cast<size_t>(column))->text();
}

void MctsSiblingsView::rebuild()
{
    for (QLabel *l : m_columns)
        delete l;
    m_columns.clear();
    m_nodes.clear();
    if (m_shown.empty()) {
        m_title->setText(m_nodeId == mcts::SearchTree::kRoot ? tr("The root has no siblings.")
                                                             : tr("Select a node to compare it with its siblings."));
        return;
    }
    const int parent = m_shown.front().node.parent;
    m_title->setText(tr("<b>Siblings</b>: the %n step(s) offered after node #%1, side by side (the selected one framed)",
                        nullptr, static_cast<int>(m_shown.size()))
                         .arg(parent));
    const int width = fontMetrics().averageCharWidth() * kColumnChars;
    int insertAt = 0;
    for (const Column &c : m_shown) {
        const mcts::Node &n = c.node;
        const task::Trajectory t = MctsNodeDetail::parseStep(n.step);
        QString html = QStringLiteral("<a href=\"node:%1\"><b>#%1</b></a>").arg(c.id);
        html += QStringLiteral(" &nbsp;P %1 · N %2 · Q %3").arg(mctsNumber(n.prior), QString::number(n.visits), mctsNumber(n.q()));
        if (const auto prm = m_prmScores.find(c.id); prm != m_prmScores.end())
            html += QStringLiteral(" · <span style=\"color:#6a1b9a\">%1</span>").arg(tr("PRM %1").arg(mctsNumber(prm->second)));
        if (c.id != m_nodeId && m_nodeId > 0)
            html += QStringLiteral(" &nbsp;<a href=\"compare:%1\">%2</a>")
                        .arg(c.id)
                        .arg(tr("compare with #%1").arg(m_nodeId).toHtmlEscaped());
        if (c.hasScore)
            html += QStringLiteral("<br><span style=\"color:#607d8b\">%1</span>")
                        .arg(tr("PUCT score at iteration %1: %2").arg(m_iteration).arg(mctsNumber(c.score)).toHtmlEscaped());
        if (n.terminal) {
            const MctsOutcome outcome = mctsOutcome(n);
            html += QStringLiteral("<br><b style=\"color:%1\">%2</b>")
                        .arg(mctsOutcomeColour(outcome).name(),
                             tr("%1 · value %2").arg(mctsOutcomeName(outcome), mctsNumber(n.terminalValue, 2)).toHtmlEscaped());
        }
        const auto block = [&html](const QString &label, const QString &text) {
            if (!text.isEmpty())
                html += QStringLiteral("<p style=\"margin:4px 0 0 0\"><span style=\"color:#607d8b\">%1</span><br>%2</p>")
                            .arg(label.toHtmlEscaped(), text);
        };
        for (const task::TrajectoryHop &hop : t.hops) {
            block(tr("Step"), esc(hop.step));
            block(tr("Sub-query"), esc(hop.subquery));
            block(tr("Sub-answer"), esc(hop.subanswer));
        }
        if (!t.finalStep.empty())
            block(tr("Step"), esc(t.finalStep));
        if (t.answer)
            block(tr("Answer"), QStringLiteral("<b>%1</b>").arg(esc(*t.answer)));
        if (!t.wellFormed)
            block(tr("Text (not in the step format)"), esc(n.step));

        auto *label = new QLabel(m_strip);
        label->setObjectName(QStringLiteral("mctsSibling%1").arg(c.id));
        label->setTextFormat(Qt::RichText);
        label->setWordWrap(true);
        label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
        label->setTextInteractionFlags(Qt::TextBrowserInteraction);
        label->setFixedWidth(width);
        label->setMargin(6);
        label->setAutoFillBackground(true);
        label->setStyleSheet(c.id == m_nodeId ? QStringLiteral("QLabel { border: 2px solid #1565c0; background: #f3f8fd; }")
                                              : QStringLiteral("QLabel { border: 1px solid #cfd8dc; }"));
        label->setText(html);
        connect(label, &QLabel::linkActivated, this, [this](const QString &link) {
            if (link.startsWith(QLatin1String("node:")))
                Q_EMIT nodeActivated(link.mid(5).toInt());
            else if (link.startsWith(QLatin1String("compare:")))
                Q_EMIT compareRequested(m_nodeId, link.mid(8).toInt());
        });
        m_stripLayout->insertWidget(insertAt++, label, 0, Qt::AlignTop);
        m_columns.push_back(label);
        m_nodes.push_back(c.id);
    }
}

} // namespace rwb::widgets
