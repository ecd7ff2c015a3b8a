#include "samplescoremodel.h"

#include "reward/extraction.h"
#include "reward/registry.h"
#include "reward/synonymtable.h"

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>

#include "rewardtext.h"

namespace {
// Tints for score cells: 0 → red, 1 → green, mixed into the base colour.
QColor scoreTint(double v, const QColor &base)
{
    const QColor bad(230, 90, 80);
    const QColor good(70, 170, 90);
    const double t = std::clamp(v, 0.0, 1.0);
    const double r = bad.redF() + (good.redF() - bad.redF()) * t;
    const double g = bad.greenF() + (good.greenF() - bad.greenF()) * t;
    const double b = bad.blueF() + (good.blueF() - bad.blueF()) * t;
    // 30 % tint keeps the text readable on light and dark palettes.
    constexpr double kAlpha = 0.3;
    return QColor::fromRgbF(static_cast<float>(base.redF() * (1 - kAlpha) + r * kAlpha),
                            static_cast<float>(base.greenF() * (1 - kAlpha) + g * kAlpha),
                            static_cast<float>(base.blueF() * (1 - kAlpha) + b * kAlpha));
}
} // namespace

SampleScoreModel::SampleScoreModel(QObject *parent) : QAbstractTableModel(parent)
{
    for (const std::string &n : rwb::reward::Registry::builtin().names(rwb::data::kCompanyExtractionTask))
        m_names << QString::fromStdString(n);
    m_weights = QVector<double>(m_names.size(), 0.0);
    setSynonyms(nullptr);
}

SampleScoreModel::~SampleScoreModel() = default;

void SampleScoreModel::setSamples(std::vector<rwb::data::ExtractionRecord> records)
{
    beginResetModel();
    m_records = std::move(records);
    m_prompts.clear();
    for (const auto &r : m_records) {
        const auto &last = m_prompts.empty() ? nullptr : m_prompts.back();
        if (last && last->senderEmail() == r.senderEmail && last->emailText() == r.emailText && last->gold() == r.gold)
            m_prompts.push_back(last);
        else
            m_prompts.push_back(std::make_shared<rwb::reward::ExtractionPrompt>(r.senderEmail, r.emailText, r.gold));
    }
    rescore();
    endResetModel();
}

void SampleScoreModel::setThinking(bool thinking)
{
    if (thinking == m_thinking)
        return;
    beginResetModel();
    m_thinking = thinking;
    rescore();
    endResetModel();
}

void SampleScoreModel::setSynonyms(std::shared_ptr<const rwb::reward::SynonymTable> synonyms)
{
    beginResetModel();
    m_synonyms = synonyms ? std::move(synonyms) : rwb::reward::SynonymTable::bundled();
    m_rewards.clear();
    rwb::reward::RewardOptions options;
    options.synonyms = m_synonyms;
    for (const QString &n : std::as_const(m_names))
        m_rewards.push_back(rwb::reward::Registry::builtin().create(n.toStdString(), options));
    rescore();
    endResetModel();
}

void SampleScoreModel::setWeights(const QVector<double> &weights)
{
    if (weights.size() != m_names.size() || weights == m_weights)
        return;
    m_weights = weights;
    recomputeTotals();
    if (!m_records.empty())
        Q_EMIT dataChanged(index(0, totalColumn()), index(rowCount() - 1, totalColumn()));
    // Zero-weight columns are drawn dimmed.
    Q_EMIT headerDataChanged(Qt::Horizontal, FirstComponentColumn, totalColumn() - 1);
    if (!m_records.empty())
        Q_EMIT dataChanged(index(0, FirstComponentColumn), index(rowCount() - 1, totalColumn() - 1),
                           {Qt::ForegroundRole});
}

void SampleScoreModel::rescore()
{
    const size_t k = m_rewards.size();
    m_values.assign(m_records.size() * k, 0.0);
    m_answers.resize(m_records.size());
    for (size_t row = 0; row < m_records.size(); ++row) {
        const rwb::reward::ExtractionAnswer a(m_records[row].completion, m_thinking);
        m_answers[row] = a.answer();
        for (size_t c = 0; c < k; ++c)
            m_values[row * k + c] = m_rewards[c]->score(*m_prompts[row], a);
    }
    recomputeTotals();
}

void SampleScoreModel::recomputeTotals()
{
    const size_t k = m_rewards.size();
    double den = 0.0;
    for (double w : std::as_const(m_weights))
        den += w;
    m_totals.assign(m_records.size(), 0.0);
    if (!(den > 0.0))
        return;
    for (size_t row = 0; row < m_records.size(); ++row) {
        double num = 0.0;
        for (size_t c = 0; c < k; ++c)
            num += m_weights[static_cast<int>(c)] * m_values[row * k + c];
        m_totals[row] = num / den;
    }
}

QString SampleScoreModel::answer(int row) const
{
    return QString::fromStdString(m_answers[static_cast<size_t>(row)]);
}

double SampleScoreModel::componentValue(int row, int component) const
{
    return m_values[static_cast<size_t>(row) * m_rewards.size() + static_cast<size_t>(component)];
}

std::vector<rwb::reward::Explanation> SampleScoreModel::explain(int row) const
{
    std::vector<rwb::reward::Explanation> out;
    const rwb::reward::ExtractionAnswer a(m_records[static_cast<size_t>(row)].completion, m_thinking);
    for (const auto &r : m_rewards)
        out.push_back(r->explain(*m_prompts[static_cast<size_t>(row)], a));
    return out;
}

int SampleScoreModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_records.size());
}

int SampleScoreModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : totalColumn() + 1;
}

QVariant SampleScoreModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount())
        return {};
    const int row = index.row();
    const int col = index.column();
    const auto &r = m_records[static_cast<size_t>(row)];
    const bool isScore = col >= FirstComponentColumn;
    const double value = !isScore ? 0.0 : (col == totalColumn() ? total(row) : componentValue(row, col - FirstComponentColumn));

    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case IdColumn: return QString::fromStdString(r.id);
        case KindColumn: return QString::fromStdString(r.kind);
        case AnswerColumn: return answer(row);
        case GoldColumn: return QString::fromStdString(r.gold);
        default: return QString::number(value, 'f', 3);
        }
    case ValueRole:
        if (isScore)
            return value;
        return data(index, Qt::DisplayRole);
    case Qt::TextAlignmentRole:
        if (isScore)
            return QVariant(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::BackgroundRole:
        if (isScore)
            return scoreTint(value, QGuiApplication::palette().color(QPalette::Base));
        return {};
    case Qt::ForegroundRole:
        if (isScore && col != totalColumn() && m_weights.value(col - FirstComponentColumn) == 0.0)
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        return {};
    case Qt::FontRole:
        if (col == totalColumn()) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (col == AnswerColumn)
            return QString::fromStdString(r.completion);
        if (col == GoldColumn || col == IdColumn)
            return QString::fromStdString(r.senderEmail);
        return {};
    default:
        return {};
    }
}

QVariant SampleScoreModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, orientation, role);
    if (section < 0 || section >= columnCount())
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case IdColumn: return tr("ID");
        case KindColumn: return tr("Kind");
        case AnswerColumn: return tr("Answer");
        case GoldColumn: return tr("Gold");
        default:
            if (section == totalColumn())
                return tr("Total");
            return m_names[section - FirstComponentColumn];
        }
    }
    if (role == Qt::ToolTipRole) {
        if (section == totalColumn())
            return tr("Σ weight·reward / Σ weight");
        if (section >= FirstComponentColumn)
            return RewardText::description(m_names[section - FirstComponentColumn]);
        if (section == KindColumn)
            return tr("The label of the bundled samples: what kind of candidate this completion is.");
    }
    return {};
}
