#include "samplescoremodel.h"

#include "data/extractionrecord.h"
#include "embed/lexicalembedder.h"
#include "reward/registry.h"
#include "reward/synonymtable.h"
#include "task/catalog.h"

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
// The task's rewards the Designer scores samples with: every one but the judge rewards,
// which need a judge the Designer does not configure yet.
QStringList scoredNames(const rwb::task::Task &task)
{
    const rwb::reward::Registry &registry = rwb::task::Catalog::builtin().rewards();
    QStringList out;
    for (const std::string &n : registry.names(task.name()))
        if (const auto *entry = registry.find(n); entry && !entry->needsJudge)
            out << QString::fromStdString(n);
    return out;
}
} // namespace

SampleScoreModel::SampleScoreModel(QObject *parent) : QAbstractTableModel(parent)
{
    m_task = rwb::task::Catalog::builtin().find(rwb::data::kCompanyExtractionTask);
    m_names = scoredNames(*m_task);
    m_weights = QVector<double>(m_names.size(), 0.0);
    setSynonyms(nullptr);
}

SampleScoreModel::~SampleScoreModel() = default;

void SampleScoreModel::setSamples(const rwb::task::Task &task, std::vector<rwb::task::Record> records)
{
    beginResetModel();
    m_records = std::move(records);
    if (&task != m_task) {
        m_task = &task;
        m_names = scoredNames(task);
        m_weights = QVector<double>(m_names.size(), 0.0);
    }
    makeRewards();
    rescore();
    endResetModel();
}

void SampleScoreModel::setThinking(bool thinking)
{
    if (thinking == m_thinking)
        return;
    beginResetModel();
    m_thinking = thinking;
    makeRewards(); // the lexical embedder is fitted on the answers as parsed
    rescore();
    endResetModel();
}

void SampleScoreModel::setSynonyms(std::shared_ptr<const rwb::reward::SynonymTable> synonyms)
{
    beginResetModel();
    m_synonyms = synonyms ? std::move(synonyms) : rwb::reward::SynonymTable::bundled();
    makeRewards();
    rescore();
    endResetModel();
}

void SampleScoreModel::makeRewards()
{
    const rwb::reward::Registry &registry = rwb::task::Catalog::builtin().rewards();
    m_rewards.clear();
    rwb::reward::RewardOptions options;
    options.synonyms = m_synonyms;
    bool needsEmbedder = false;
    for (const QString &n : std::as_const(m_names))
        if (const auto *entry = registry.find(n.toStdString()))
            needsEmbedder = needsEmbedder || entry->needsEmbedder;
    if (needsEmbedder) {
        // Fitted on the samples' own texts: the parsed answers and the gold texts.
        std::vector<std::string> texts;
        for (const auto &r : m_records) {
            texts.push_back(r.example->goldText());
            texts.push_back(m_task->parse(*r.example, r.completion, m_thinking)->answer());
        }
        if (texts.empty())
            texts.emplace_back();
        options.embedder = std::make_shared<const rwb::embed::LexicalEmbedder>(texts);
    }
    for (const QString &n : std::as_const(m_names))
        m_rewards.push_back(registry.create(n.toStdString(), options));
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
    m_completions.clear();
    for (const auto &r : m_records)
        m_completions.push_back(m_task->parse(*r.example, r.completion, m_thinking));
    std::vector<const rwb::task::Example *> examples;
    std::vector<const rwb::task::Completion *> completions;
    for (size_t row = 0; row < m_records.size(); ++row) {
        examples.push_back(m_records[row].example.get());
        completions.push_back(m_completions[row].get());
    }
    std::vector<double> values;
    for (size_t c = 0; c < k; ++c) {
        m_rewards[c]->scoreBatch(examples, completions, values);
        for (size_t row = 0; row < m_records.size(); ++row)
            m_values[row * k + c] = values[row];
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
    return QString::fromStdString(m_completions[static_cast<size_t>(row)]->answer());
}

double SampleScoreModel::componentValue(int row, int component) const
{
    return m_values[static_cast<size_t>(row) * m_rewards.size() + static_cast<size_t>(component)];
}

std::vector<rwb::reward::Explanation> SampleScoreModel::explain(int row) const
{
    std::vector<rwb::reward::Explanation> out;
    const auto i = static_cast<size_t>(row);
    for (const auto &r : m_rewards)
        out.push_back(r->explain(*m_records[i].example, *m_completions[i]));
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
        case IdColumn: return QString::fromStdString(r.example->id());
        case KindColumn: return QString::fromStdString(r.kind);
        case AnswerColumn: return answer(row);
        case GoldColumn: return QString::fromStdString(r.example->goldText());
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
