#include "mctstreelistmodel.h"

#include <QFont>

namespace rwb::widgets {

namespace {

bool sameSummary(const mcts::TreeSummary &a, const mcts::TreeSummary &b)
{
    return a.treeId == b.treeId && a.questionId == b.questionId && a.question == b.question &&
           a.goldAnswer == b.goldAnswer && a.hops == b.hops && a.bestAnswer == b.bestAnswer &&
           a.bestValue == b.bestValue && a.foundValue == b.foundValue && a.nodes == b.nodes && a.depth == b.depth &&
           a.iterations == b.iterations && a.complete == b.complete;
}

} // namespace

MctsTreeListModel::MctsTreeListModel(QObject *parent) : QAbstractTableModel(parent) {}

void MctsTreeListModel::setTrees(std::vector<mcts::TreeSummary> trees)
{
    bool samePrefix = !m_trees.empty() && trees.size() >= m_trees.size();
    for (size_t i = 0; samePrefix && i < m_trees.size(); ++i)
        samePrefix = trees[i].treeId == m_trees[i].treeId;
    if (!samePrefix) {
        beginResetModel();
        m_trees = std::move(trees);
        endResetModel();
        return;
    }
    // A live source: the rows shown change in place, new ones come at the end.
    for (size_t i = 0; i < m_trees.size(); ++i) {
        if (sameSummary(m_trees[i], trees[i]))
            continue;
        m_trees[i] = trees[i];
        const int row = static_cast<int>(i);
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
    }
    if (trees.size() > m_trees.size()) {
        beginInsertRows({}, static_cast<int>(m_trees.size()), static_cast<int>(trees.size()) - 1);
        m_trees.insert(m_trees.end(), trees.begin() + static_cast<std::ptrdiff_t>(m_trees.size()), trees.end());
        endInsertRows();
    }
}

int MctsTreeListModel::rowOf(qint64 treeId) const
{
    for (size_t i = 0; i < m_trees.size(); ++i)
        if (m_trees[i].treeId == treeId)
            return static_cast<int>(i);
    return -1;
}

int MctsTreeListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_trees.size());
}

int MctsTreeListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant MctsTreeListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const mcts::TreeSummary &t = m_trees[static_cast<size_t>(index.row())];
    const auto text = [](const std::string &s) { return QString::fromStdString(s); };
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case IdColumn: return t.questionId.empty() ? QString::number(t.treeId) : text(t.questionId);
        case QuestionColumn: return text(t.question).simplified();
        case HopsColumn: return t.hops > 0 ? QVariant(t.hops) : QVariant(QStringLiteral("—"));
        case BestAnswerColumn: return t.bestAnswer.empty() ? QStringLiteral("—") : text(t.bestAnswer).simplified();
        case BestValueColumn: return QString::number(t.bestValue, 'f', 2);
        case FoundValueColumn: return QString::number(t.foundValue, 'f', 2);
        case NodesColumn: return t.nodes;
        case DepthColumn: return t.depth;
        case IterationsColumn: return t.iterations;
        default: return {};
        }
    case SortRole:
        switch (index.column()) {
        case IdColumn: return t.questionId.empty() ? QString::number(t.treeId) : text(t.questionId);
        case QuestionColumn: return text(t.question);
        case HopsColumn: return t.hops;
        case BestAnswerColumn: return text(t.bestAnswer);
        case BestValueColumn: return t.bestValue;
        case FoundValueColumn: return t.foundValue;
        case NodesColumn: return t.nodes;
        case DepthColumn: return t.depth;
        case IterationsColumn: return t.iterations;
        default: return {};
        }
    case Qt::ToolTipRole:
        switch (index.column()) {
        case QuestionColumn:
        case BestAnswerColumn:
            return tr("%1\nGold answer: %2\nBest path's answer: %3")
                .arg(text(t.question), text(t.goldAnswer), t.bestAnswer.empty() ? tr("none") : text(t.bestAnswer));
        case IterationsColumn:
            return t.complete ? QVariant() : QVariant(tr("The search has not run all its simulations (yet)"));
        default: return {};
        }
    case Qt::TextAlignmentRole:
        switch (index.column()) {
        case IdColumn:
        case QuestionColumn:
        case BestAnswerColumn: return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
        default: return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        }
    case Qt::FontRole:
        if (!t.complete) {
            QFont f;
            f.setItalic(true);
            return f;
        }
        return {};
    case TreeIdRole: return static_cast<qint64>(t.treeId);
    case CorrectRole: return t.bestValue >= kCorrectValue;
    default: return {};
    }
}

QVariant MctsTreeListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IdColumn: return tr("Id");
        case QuestionColumn: return tr("Question");
        case HopsColumn: return tr("Hops");
        case BestAnswerColumn: return tr("Best path's answer");
        case BestValueColumn: return tr("Value");
        case FoundValueColumn: return tr("Best found");
        case NodesColumn: return tr("Nodes");
        case DepthColumn: return tr("Depth");
        case IterationsColumn: return tr("Iterations");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case BestAnswerColumn: return tr("The answer at the end of the most visited path");
        case BestValueColumn: return tr("The value (answer F1) of the most visited path's answer");
        case FoundValueColumn: return tr("The best value any answer of the search reached");
        default: return {};
        }
    }
    return {};
}

} // namespace rwb::widgets
