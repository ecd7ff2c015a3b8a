#include "pairqueuemodel.h"

#include "prm/agreement.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace rwb::widgets {

namespace {

const std::vector<prm::Label> kNoLabels;

// The rater's label of a pair (Skip when none), as the agreement matrix counts them.
prm::Choice raterChoice(const std::vector<prm::Label> &labels, const std::string &rater)
{
    if (rater == prm::kHumanMajority) {
        std::vector<prm::Label> people;
        for (const prm::Label &l : labels)
            if (l.source == prm::Source::Human)
                people.push_back(l);
        return people.size() >= 1 ? prm::pairConsensus(people).majority : prm::Choice::Skip;
    }
    for (const prm::Label &l : labels)
        if (prm::raterName(l) == rater)
            return l.choice;
    return prm::Choice::Skip;
}

} // namespace

PairQueueModel::PairQueueModel(QObject *parent) : QAbstractTableModel(parent) {}

void PairQueueModel::setPairs(std::vector<prm::StepPair> pairs, const std::vector<prm::Label> &labels)
{
    beginResetModel();
    m_pairs = std::move(pairs);
    m_labels.clear();
    m_rows.clear();
    for (size_t i = 0; i < m_pairs.size(); ++i)
        m_rows[m_pairs[i].id] = static_cast<int>(i);
    for (const prm::Label &l : labels)
        m_labels[l.pairId].push_back(l);
    endResetModel();
}

void PairQueueModel::setAnnotator(const QString &name)
{
    m_annotator = name;
    if (!m_pairs.empty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

int PairQueueModel::rowOf(qint64 pairId) const
{
    const auto it = m_rows.find(pairId);
    return it == m_rows.end() ? -1 : it->second;
}

const std::vector<prm::Label> &PairQueueModel::labelsOf(qint64 pairId) const
{
    const auto it = m_labels.find(pairId);
    return it == m_labels.end() ? kNoLabels : it->second;
}

std::vector<prm::Label> PairQueueModel::allLabels() const
{
    std::vector<prm::Label> out;
    for (const auto &[id, ls] : m_labels)
        out.insert(out.end(), ls.begin(), ls.end());
    return out;
}

const prm::Label *PairQueueModel::mine(qint64 pairId) const
{
    const std::string me = m_annotator.toStdString();
    for (const prm::Label &l : labelsOf(pairId))
        if (l.source == prm::Source::Human && l.annotator == me)
            return &l;
    return nullptr;
}

int PairQueueModel::labelledByMe() const
{
    int n = 0;
    for (const prm::StepPair &p : m_pairs)
        n += mine(p.id) ? 1 : 0;
    return n;
}

void PairQueueModel::setLabel(const prm::Label &label)
{
    std::vector<prm::Label> &ls = m_labels[label.pairId];
    bool replaced = false;
    for (prm::Label &l : ls)
        if (l.source == label.source && l.annotator == label.annotator) {
            l = label;
            replaced = true;
        }
    if (!replaced)
        ls.push_back(label);
    rowChanged(label.pairId);
}

void PairQueueModel::removeLabel(qint64 pairId, prm::Source source, const std::string &annotator)
{
    std::vector<prm::Label> &ls = m_labels[pairId];
    ls.erase(std::remove_if(ls.begin(), ls.end(),
                            [&](const prm::Label &l) { return l.source == source && l.annotator == annotator; }),
             ls.end());
    rowChanged(pairId);
}

void PairQueueModel::rowChanged(qint64 pairId)
{
    const int row = rowOf(pairId);
    if (row >= 0)
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

int PairQueueModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_pairs.size());
}

int PairQueueModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString PairQueueModel::choiceText(prm::Choice choice)
{
    switch (choice) {
    case prm::Choice::A: return tr("A");
    case prm::Choice::B: return tr("B");
    case prm::Choice::Tie: return tr("tie");
    case prm::Choice::Skip: return tr("skip");
    }
    return {};
}

QVariant PairQueueModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const prm::StepPair &p = m_pairs[static_cast<size_t>(index.row())];
    const std::vector<prm::Label> &ls = labelsOf(p.id);
    const prm::PairConsensus consensus = prm::pairConsensus(ls);
    switch (role) {
    case PairIdRole: return qint64(p.id);
    case MineRole: return mine(p.id) != nullptr;
    case DisagreementRole: return consensus.disagreement;
    case QuestionIdRole: return QString::fromStdString(p.questionId);
    default: break;
    }
    if (role == Qt::ForegroundRole && index.column() == StatusColumn && consensus.disagreement)
        return QBrush(QColor(0xb0, 0x30, 0x20));
    if (role == Qt::TextAlignmentRole && index.column() != QuestionColumn)
        return int(Qt::AlignCenter);
    if (role == Qt::ToolTipRole && index.column() == QuestionColumn)
        return QString::fromStdString(p.question);
    if (role != Qt::DisplayRole)
        return {};
    switch (static_cast<Column>(index.column())) {
    case IdColumn: return qint64(p.id);
    case QuestionColumn: return QString::fromStdString(p.question);
    case StepColumn: return static_cast<int>(p.history.size()) + 1;
    case TreeColumn:
        for (const prm::Label &l : ls)
            if (l.source == prm::Source::Tree)
                return choiceText(l.choice);
        return QString();
    case JudgeColumn: {
        std::vector<prm::Label> judges;
        for (const prm::Label &l : ls)
            if (l.source == prm::Source::Judge && l.choice != prm::Choice::Skip)
                judges.push_back(l);
        if (judges.empty())
            return QString();
        if (judges.size() == 1)
            return choiceText(judges.front().choice);
        const prm::PairConsensus c = prm::pairConsensus(judges);
        return c.disagreement ? tr("split") : choiceText(c.majority);
    }
    case MineColumn: {
        const prm::Label *m = mine(p.id);
        return m ? choiceText(m->choice) : QString();
    }
    case PeopleColumn: {
        int n = 0;
        for (const prm::Label &l : ls)
            n += l.source == prm::Source::Human && l.choice != prm::Choice::Skip ? 1 : 0;
        return n;
    }
    case StatusColumn:
        if (consensus.labels < 2)
            return QString();
        return consensus.disagreement ? tr("disagree") : tr("agree");
    case ColumnCount: break;
    }
    return {};
}

QVariant PairQueueModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (static_cast<Column>(section)) {
    case IdColumn: return tr("Pair");
    case QuestionColumn: return tr("Question");
    case StepColumn: return tr("Step");
    case TreeColumn: return tr("Tree");
    case JudgeColumn: return tr("Judge");
    case MineColumn: return tr("You");
    case PeopleColumn: return tr("People");
    case StatusColumn: return tr("Labels");
    case ColumnCount: break;
    }
    return {};
}

PairQueueFilter::PairQueueFilter(QObject *parent) : QSortFilterProxyModel(parent) {}

void PairQueueFilter::setMode(Mode mode)
{
    m_mode = mode;
    invalidateFilter();
}

void PairQueueFilter::setQuestionText(const QString &text)
{
    m_text = text.trimmed();
    invalidateFilter();
}

void PairQueueFilter::setRaters(const QString &first, const QString &second)
{
    m_first = first;
    m_second = second;
    invalidateFilter();
}

bool PairQueueFilter::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    const auto *m = qobject_cast<const PairQueueModel *>(sourceModel());
    if (!m || sourceParent.isValid())
        return true;
    const prm::StepPair &p = m->pair(sourceRow);
    if (m_mode == Mode::Unlabelled && m->mine(p.id))
        return false;
    const std::vector<prm::Label> &ls = m->labelsOf(p.id);
    if (m_mode == Mode::Disagreements && !prm::pairConsensus(ls).disagreement)
        return false;
    if (!m_text.isEmpty() && !QString::fromStdString(p.question).contains(m_text, Qt::CaseInsensitive) &&
        !QString::fromStdString(p.questionId).contains(m_text, Qt::CaseInsensitive))
        return false;
    if (!m_first.isEmpty() && !m_second.isEmpty()) {
        const prm::Choice a = raterChoice(ls, m_first.toStdString()), b = raterChoice(ls, m_second.toStdString());
        if (a == prm::Choice::Skip || b == prm::Choice::Skip || a == b)
            return false;
    }
    return true;
}

bool PairQueueFilter::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (left.column() == PairQueueModel::IdColumn || left.column() == PairQueueModel::StepColumn ||
        left.column() == PairQueueModel::PeopleColumn)
        return left.data().toLongLong() < right.data().toLongLong();
    return QSortFilterProxyModel::lessThan(left, right);
}

} // namespace rwb::widgets
