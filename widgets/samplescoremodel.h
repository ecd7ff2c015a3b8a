#pragma once

#include "data/extractionrecord.h"
#include "reward/reward.h"

#include <QAbstractTableModel>
#include <QStringList>
#include <QVector>

#include <memory>
#include <vector>

namespace rwb::reward {
class ExtractionPrompt;
class SynonymTable;
} // namespace rwb::reward

// Every sample (one completion of one e-mail) scored by every registered reward of
// the extraction task. Component values are computed when samples, the thinking mode
// or the synonym table change; a weight change only recomputes the totals, so the
// table follows a slider without re-scoring.
//
// Columns: id, kind, answer, gold, one per component (registry order), total.
// Lives on the GUI thread.
class SampleScoreModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { IdColumn, KindColumn, AnswerColumn, GoldColumn, FirstComponentColumn };
    // The raw number of a score cell (double), for sorting and filtering.
    static constexpr int ValueRole = Qt::UserRole + 1;

    explicit SampleScoreModel(QObject *parent = nullptr);
    ~SampleScoreModel() override;

    void setSamples(std::vector<rwb::data::ExtractionRecord> records);
    void setThinking(bool thinking);
    bool thinking() const { return m_thinking; }
    // The table for `domain`; null means the bundled one.
    void setSynonyms(std::shared_ptr<const rwb::reward::SynonymTable> synonyms);
    // One weight per component, in componentNames() order; the sum may be 0 (totals are then 0).
    void setWeights(const QVector<double> &weights);
    const QVector<double> &weights() const { return m_weights; }

    const QStringList &componentNames() const { return m_names; }
    int componentColumn(int component) const { return FirstComponentColumn + component; }
    int totalColumn() const { return FirstComponentColumn + static_cast<int>(m_names.size()); }

    const rwb::data::ExtractionRecord &record(int row) const { return m_records[static_cast<size_t>(row)]; }
    QString answer(int row) const;
    double componentValue(int row, int component) const;
    double total(int row) const { return m_totals[static_cast<size_t>(row)]; }
    // Every component's explanation for a row (computed on demand).
    std::vector<rwb::reward::Explanation> explain(int row) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    void rescore();
    void recomputeTotals();

    QStringList m_names;
    std::vector<std::unique_ptr<rwb::reward::Reward>> m_rewards;
    std::vector<rwb::data::ExtractionRecord> m_records;
    std::vector<std::shared_ptr<rwb::reward::ExtractionPrompt>> m_prompts; // one per row, shared per e-mail
    std::vector<std::string> m_answers;                                     // extracted answer per row
    std::vector<double> m_values;                                           // row-major: rows × components
    std::vector<double> m_totals;
    QVector<double> m_weights;
    std::shared_ptr<const rwb::reward::SynonymTable> m_synonyms;
    bool m_thinking = false;
};
