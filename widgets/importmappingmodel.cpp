#include "importmappingmodel.h"

#include <QBrush>
#include <QCoreApplication>
#include <QPalette>
#include <QGuiApplication>

namespace rwb::widgets {

namespace {

// What the import maps fields to (core/store/rolloutimport.cpp's targets, in English
// there), so that the preview reads in the user's language. A target not listed shows as
// the engine wrote it.
const char *const kTargets[] = {
    QT_TRANSLATE_NOOP("ImportTargets", "None marker (rwb serve's reward_none: the reward is None)"),
    QT_TRANSLATE_NOOP("ImportTargets", "advantage"),
    QT_TRANSLATE_NOOP("ImportTargets", "answer"),
    QT_TRANSLATE_NOOP("ImportTargets", "completion"),
    QT_TRANSLATE_NOOP("ImportTargets", "completion (prompt and completion decoded together: the table keeps no prompt)"),
    QT_TRANSLATE_NOOP("ImportTargets", "details"),
    QT_TRANSLATE_NOOP("ImportTargets", "details (dispatch_step: when it was sampled; the step is the step_N folder's)"),
    QT_TRANSLATE_NOOP("ImportTargets", "details (each error's type and message)"),
    QT_TRANSLATE_NOOP("ImportTargets", "details (info)"),
    QT_TRANSLATE_NOOP("ImportTargets", "details (metrics)"),
    QT_TRANSLATE_NOOP("ImportTargets", "details (the sample's place in verl's val/generations table)"),
    QT_TRANSLATE_NOOP("ImportTargets", "gold answer"),
    QT_TRANSLATE_NOOP("ImportTargets", "group"),
    QT_TRANSLATE_NOOP("ImportTargets", "log-probs new (the trainer's forward pass before the update)"),
    QT_TRANSLATE_NOOP("ImportTargets", "log-probs old (the inference engine's, at sampling)"),
    QT_TRANSLATE_NOOP("ImportTargets", "log-probs ref (the reference model's)"),
    QT_TRANSLATE_NOOP("ImportTargets", "not imported (all 0: the trainer's forward pass was skipped)"),
    QT_TRANSLATE_NOOP("ImportTargets", "not imported (images)"),
    QT_TRANSLATE_NOOP("ImportTargets", "not imported (the row's number in the file)"),
    QT_TRANSLATE_NOOP("ImportTargets", "per-token advantages"),
    QT_TRANSLATE_NOOP("ImportTargets", "per-token advantages (their mean: the advantage)"),
    QT_TRANSLATE_NOOP("ImportTargets", "prompt"),
    QT_TRANSLATE_NOOP("ImportTargets", "prompt and completion (the last branch's messages; the first sampled one starts the completion)"),
    QT_TRANSLATE_NOOP("ImportTargets", "prompt and completion (the messages' texts, joined as the model saw them)"),
    QT_TRANSLATE_NOOP("ImportTargets", "reward"),
    QT_TRANSLATE_NOOP("ImportTargets", "reward (the score again, in validation dumps)"),
    QT_TRANSLATE_NOOP("ImportTargets", "reward component"),
    QT_TRANSLATE_NOOP("ImportTargets", "reward components (each score) and reward (the sum of score × weight)"),
    QT_TRANSLATE_NOOP("ImportTargets", "reward components (numbers), details (the rest)"),
    QT_TRANSLATE_NOOP("ImportTargets", "reward function"),
    QT_TRANSLATE_NOOP("ImportTargets", "step"),
    QT_TRANSLATE_NOOP("ImportTargets", "step (the file is in no step_N folder)"),
    QT_TRANSLATE_NOOP("ImportTargets", "the prompt's record (meta)"),
    QT_TRANSLATE_NOOP("ImportTargets", "the tokens before the padding"),
    QT_TRANSLATE_NOOP("ImportTargets", "token ids (the generated tokens: token_loss_mask 1)"),
    QT_TRANSLATE_NOOP("ImportTargets", "token ids (the model's spans of them, by action_ranges)"),
    QT_TRANSLATE_NOOP("ImportTargets", "token ids (the sampled tokens: mask true)"),
    QT_TRANSLATE_NOOP("ImportTargets", "train or eval (eval episodes skipped unless --include-eval)"),
    QT_TRANSLATE_NOOP("ImportTargets", "train or eval (eval rows skipped unless --include-eval)"),
    QT_TRANSLATE_NOOP("ImportTargets", "truncated"),
    QT_TRANSLATE_NOOP("ImportTargets", "truncated (\"length\")"),
    QT_TRANSLATE_NOOP("ImportTargets", "truncated (a length limit) and details"),
    QT_TRANSLATE_NOOP("ImportTargets", "which tokens the model generated"),
};

// A TRL conversation column's note after its target.
const char kToolCalls[] = " (tool calls as <tool_call> text; the messages also in the details)";

} // namespace

QString ImportMappingModel::translatedTarget(const std::string &target)
{
    const QString text = QString::fromStdString(target);
    if (text.endsWith(QLatin1String(kToolCalls)))
        return translatedTarget(target.substr(0, target.size() - (sizeof kToolCalls - 1))) +
               QCoreApplication::translate("ImportTargets", "; tool calls as <tool_call> text, the messages also in the details");
    for (const char *t : kTargets)
        if (target == t)
            return QCoreApplication::translate("ImportTargets", t);
    return text;
}

ImportMappingModel::ImportMappingModel(QObject *parent) : QAbstractTableModel(parent) {}

void ImportMappingModel::setMapping(const std::vector<store::FieldMapping> &mapped,
                                    const std::vector<store::FieldMapping> &unmapped)
{
    beginResetModel();
    m_rows.clear();
    for (const store::FieldMapping &m : mapped)
        m_rows.push_back({m, true});
    for (const store::FieldMapping &m : unmapped)
        m_rows.push_back({m, false});
    endResetModel();
}

QString ImportMappingModel::target(const QString &field) const
{
    for (const Row &r : m_rows)
        if (QString::fromStdString(r.field.field) == field)
            return QString::fromStdString(r.field.target);
    return {};
}

int ImportMappingModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int ImportMappingModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ImportMappingModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= ColumnCount)
        return {};
    const Row &r = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        switch (index.column()) {
        case FieldColumn:
            return QString::fromStdString(r.field.field);
        case TargetColumn:
            return translatedTarget(r.field.target);
        case RowsColumn:
            return static_cast<qlonglong>(r.field.rows);
        default:
            return {};
        }
    case MappedRole:
        return r.mapped;
    case Qt::ForegroundRole:
        if (!r.mapped)
            return QGuiApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(index.column() == RowsColumn ? Qt::AlignRight | Qt::AlignVCenter
                                                                : Qt::AlignLeft | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant ImportMappingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case FieldColumn: return tr("Field of the dump");
        case TargetColumn: return tr("Becomes");
        case RowsColumn: return tr("Rows");
        default: return {};
        }
    }
    if (role == Qt::ToolTipRole && section == RowsColumn)
        return tr("How many of the rows read have the field");
    return QAbstractTableModel::headerData(section, orientation, role);
}

} // namespace rwb::widgets
