#include "samplescoremodel.h"

#include "judgescorer.h"
#include "judgesetup.h"

#include "tasks/extraction/extractionrecord.h"
#include "embed/lexicalembedder.h"
#include "judge/rubric.h"
#include "reward/registry.h"
#include "reward/synonymtable.h"
#include "store/runstore.h"
#include "task/catalog.h"

#include <stdexcept>
#include "task/rubricoverride.h"

#include <nlohmann/json.hpp>

#include <QColor>
#include <QFont>
#include <QGuiApplication>
#include <QPalette>
#include <QTimer>

#include <cmath>

#include "rewardtext.h"
#include "rewardvalue.h"

using rwb::widgets::JudgeCellResult;
using rwb::widgets::JudgeScorer;
using CellState = SampleScoreModel::CellState;

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


// The name of a run the Designer logs its judge calls to.
constexpr const char *kLogRunName = "Designer";

const std::vector<rwb::reward::JudgeDecision> kNoDecisions;
} // namespace

SampleScoreModel::SampleScoreModel(QObject *parent) : QAbstractTableModel(parent)
{
    m_scorer = new JudgeScorer(this);
    m_judgeTimer = new QTimer(this);
    m_judgeTimer->setSingleShot(true);
    m_judgeTimer->setInterval(0);
    connect(m_judgeTimer, &QTimer::timeout, this, &SampleScoreModel::startJudging);
    connect(m_scorer, &JudgeScorer::started, this, &SampleScoreModel::judgingStarted);
    connect(m_scorer, &JudgeScorer::progress, this, &SampleScoreModel::judgingProgress);
    connect(m_scorer, &JudgeScorer::cellsScored, this, &SampleScoreModel::applyResults);
    connect(m_scorer, &JudgeScorer::finished, this, &SampleScoreModel::onJudgingFinished);
    connect(m_scorer, &JudgeScorer::logged, this, &SampleScoreModel::judgeCallsLogged);

    m_task = rwb::task::Catalog::builtin().find("");
    useComponents(taskComponents(*m_task));
    setSynonyms(nullptr);
}

std::vector<SampleScoreModel::Component> SampleScoreModel::taskComponents(const rwb::task::Task &task)
{
    // The task's own rewards, in registry order: the rule rewards and the judge rewards.
    std::vector<Component> out;
    for (const auto &e : rwb::task::Catalog::builtin().rewards().entries())
        if (e.task == task.name())
            out.push_back({QString::fromStdString(e.name), e.name, {}});
    return out;
}

void SampleScoreModel::useComponents(const std::vector<Component> &components)
{
    m_names.clear();
    m_rewardNames.clear();
    m_options.clear();
    for (const Component &c : components) {
        m_names << c.label;
        m_rewardNames.push_back(c.reward);
        m_options.push_back(c.options);
    }
    m_weights = QVector<double>(m_names.size(), 0.0);
}

void SampleScoreModel::setComponents(const std::vector<Component> &components)
{
    beginResetModel();
    useComponents(components);
    makeRewards();
    m_values.clear(); // every cell anew
    scoreRules();
    resetJudgeCells(allRows(), judgeComponents());
    recomputeTotals();
    endResetModel();
}

SampleScoreModel::~SampleScoreModel() = default;

std::vector<int> SampleScoreModel::allRows() const
{
    std::vector<int> rows(m_records.size());
    for (size_t i = 0; i < rows.size(); ++i)
        rows[i] = static_cast<int>(i);
    return rows;
}

std::vector<int> SampleScoreModel::judgeComponents() const
{
    std::vector<int> out;
    for (size_t c = 0; c < m_isJudge.size(); ++c)
        if (m_isJudge[c])
            out.push_back(static_cast<int>(c));
    return out;
}

void SampleScoreModel::setSamples(const rwb::task::Task &task, std::vector<rwb::task::Record> records)
{
    beginResetModel();
    m_records = std::move(records);
    m_overrides.assign(m_records.size(), nullptr);
    if (&task != m_task) {
        m_task = &task;
        useComponents(taskComponents(task));
    }
    if (m_logTask != task.name())
        m_logRun = 0; // the next re-score starts a run of this task
    parseCompletions();
    makeRewards();
    m_values.clear(); // every cell anew
    scoreRules();
    resetJudgeCells(allRows(), judgeComponents());
    recomputeTotals();
    endResetModel();
}

void SampleScoreModel::setThinking(bool thinking)
{
    if (thinking == m_thinking)
        return;
    beginResetModel();
    m_thinking = thinking;
    parseCompletions();
    makeRewards(); // the lexical embedder is fitted on the answers as parsed
    scoreRules();
    resetJudgeCells(allRows(), judgeComponents()); // the answers changed
    recomputeTotals();
    endResetModel();
}

void SampleScoreModel::setSynonyms(std::shared_ptr<const rwb::reward::SynonymTable> synonyms)
{
    beginResetModel();
    m_synonyms = synonyms ? std::move(synonyms) : rwb::reward::SynonymTable::bundled();
    makeRewards();
    scoreRules();
    recomputeTotals();
    endResetModel();
}

void SampleScoreModel::parseCompletions()
{
    m_completions.clear();
    for (const auto &r : m_records)
        m_completions.push_back(m_task->parse(*r.example, r.completion, m_thinking));
}

void SampleScoreModel::makeRewards()
{
    const rwb::reward::Registry &registry = rwb::task::Catalog::builtin().rewards();
    m_rewards.clear();
    m_isJudge.clear();
    rwb::reward::RewardOptions options;
    options.synonyms = m_synonyms;
    bool needsEmbedder = false;
    for (const std::string &n : m_rewardNames)
        if (const auto *entry = registry.find(n))
            needsEmbedder = needsEmbedder || entry->needsEmbedder;
    if (needsEmbedder) {
        // Fitted on the samples' own texts: the parsed answers and the gold texts.
        std::vector<std::string> texts;
        for (size_t i = 0; i < m_records.size(); ++i) {
            texts.push_back(m_records[i].example->goldText());
            texts.push_back(m_completions[i]->answer());
        }
        if (texts.empty())
            texts.emplace_back();
        options.embedder = std::make_shared<const rwb::embed::LexicalEmbedder>(texts);
    }
    m_makeErrors.assign(m_rewardNames.size(), std::string());
    for (size_t c = 0; c < m_rewardNames.size(); ++c) {
        const auto *entry = registry.find(m_rewardNames[c]);
        const bool judge = entry && entry->needsJudge;
        m_isJudge.push_back(judge);
        if (judge) {
            m_rewards.push_back(nullptr); // the JudgeSetup makes it, with its client
            continue;
        }
        options.componentOptions = m_options[c];
        options.label = m_names[static_cast<int>(c)].toStdString();
        try {
            m_rewards.push_back(registry.create(m_rewardNames[c], options));
        } catch (const std::exception &e) {
            // Bad options (a regex that does not compile, a Python file with a syntax
            // error): the column shows None with the message; the rest scores on.
            m_rewards.push_back(nullptr);
            m_makeErrors[c] = e.what();
        }
    }
}

void SampleScoreModel::scoreRules()
{
    const size_t k = static_cast<size_t>(m_names.size());
    const size_t n = m_records.size();
    if (m_values.size() != n * k || m_states.size() != n * k) {
        m_values.assign(n * k, rwb::reward::kNone);
        m_states.assign(n * k, CellState::NotScored);
        m_versions.assign(n * k, 0);
        m_notes.clear();
        m_decisions.clear();
    }
    std::vector<const rwb::task::Example *> examples;
    std::vector<const rwb::task::Completion *> completions;
    for (size_t row = 0; row < n; ++row) {
        examples.push_back(m_records[row].example.get());
        completions.push_back(m_completions[row].get());
    }
    std::vector<double> values;
    for (size_t c = 0; c < k; ++c) {
        if (m_isJudge[c])
            continue;
        for (size_t row = 0; row < n; ++row)
            m_notes.erase(row * k + c); // a note of an earlier scoring says nothing now
        if (!m_rewards[c]) {
            for (size_t row = 0; row < n; ++row) {
                m_values[row * k + c] = rwb::reward::kNone;
                m_states[row * k + c] = CellState::Value;
                m_notes[row * k + c] = QString::fromStdString(m_makeErrors[c]);
            }
            continue;
        }
        try {
            m_rewards[c]->scoreBatch(examples, completions, values);
        } catch (const std::exception &e) {
            values.assign(n, rwb::reward::kNone);
            for (size_t row = 0; row < n; ++row)
                m_notes[row * k + c] = QString::fromStdString(e.what());
        }
        for (size_t row = 0; row < n; ++row) {
            m_values[row * k + c] = values[row];
            m_states[row * k + c] = CellState::Value;
        }
    }
}

void SampleScoreModel::resetJudgeCells(const std::vector<int> &rows, const std::vector<int> &components)
{
    for (int row : rows)
        for (int c : components) {
            const size_t i = cellIndex(row, c);
            m_values[i] = rwb::reward::kNone;
            m_notes.erase(i);
            m_decisions.erase(i);
            m_versions[i] = ++m_lastVersion; // a result of an earlier request is stale now
            if (!m_judge)
                m_states[i] = CellState::NoJudge;
            else if (!(m_weights.value(c) > 0.0))
                m_states[i] = CellState::NotScored;
            else
                m_states[i] = CellState::Pending;
        }
    // Also with nothing pending: a job still asking for what was just reset is replaced.
    scheduleJudging();
}

void SampleScoreModel::scheduleJudging()
{
    m_judgeTimer->start();
}

void SampleScoreModel::startJudging()
{
    JudgeScorer::Job job;
    if (!m_judge) {
        if (m_scorer->isRunning())
            m_scorer->start(std::move(job)); // stops the running one; nothing to ask
        return;
    }
    job.setup = m_judge;
    std::vector<int> sampleOf(m_records.size(), -1);
    std::vector<int> componentOf(static_cast<size_t>(m_names.size()), -1);
    for (size_t row = 0; row < m_records.size(); ++row)
        for (int c : judgeComponents()) {
            const size_t i = cellIndex(static_cast<int>(row), c);
            if (m_states[i] != CellState::Pending)
                continue;
            if (sampleOf[row] < 0) {
                sampleOf[row] = static_cast<int>(job.samples.size());
                JudgeScorer::Sample s;
                s.row = static_cast<int>(row);
                s.example = m_overrides[row]
                                ? std::make_shared<const rwb::task::RubricOverrideExample>(m_records[row].example,
                                                                                           m_overrides[row])
                                : m_records[row].example;
                s.completion = m_completions[row];
                job.samples.push_back(std::move(s));
            }
            if (componentOf[static_cast<size_t>(c)] < 0) {
                componentOf[static_cast<size_t>(c)] = static_cast<int>(job.components.size());
                job.components.push_back({c, m_rewardNames[static_cast<size_t>(c)], m_options[static_cast<size_t>(c)]});
            }
            job.cells.push_back({sampleOf[row], componentOf[static_cast<size_t>(c)], m_versions[i]});
        }
    if (job.cells.empty()) {
        if (m_scorer->isRunning())
            m_scorer->start(std::move(job)); // what it asks for is no longer wanted
        return;
    }
    if (!m_logPath.isEmpty()) {
        // The log run: made on the first re-score (a quick local write), one step per re-score.
        try {
            if (!m_log) {
                QString why;
                m_log = rwb::widgets::StoreDocument::open(m_logPath, &why, rwb::widgets::StoreDocument::Missing::Create);
                if (!m_log)
                    throw std::runtime_error(why.toStdString());
            }
            rwb::store::RunStore &store = m_log->writable();
            if (m_logRun == 0) {
                nlohmann::json config = {{"task", std::string(m_task->name())}, {"judge", m_judge->json()}};
                m_logRun = store.beginRun(kLogRunName, rwb::store::RunKind::Eval, config.dump(), std::string(m_task->name()));
                m_logTask = m_task->name();
                m_logStep = 0;
            }
            job.log = m_log->writer();
            job.logPath = m_logPath;
            job.runId = m_logRun;
            job.step = ++m_logStep;
        } catch (const std::exception &) {
            job.log = nullptr; // scored all the same; the scorer is not asked to log
        }
    }
    m_scorer->start(std::move(job));
}

void SampleScoreModel::applyResults(const std::vector<JudgeCellResult> &results)
{
    bool changed = false;
    for (const JudgeCellResult &r : results) {
        if (r.row < 0 || static_cast<size_t>(r.row) >= m_records.size() || r.component < 0 || r.component >= m_names.size())
            continue;
        const size_t i = cellIndex(r.row, r.component);
        if (m_versions[i] != r.version || m_states[i] != CellState::Pending)
            continue; // asked again since (an edit), or no longer wanted
        m_states[i] = r.status == JudgeCellResult::Status::NotApplicable ? CellState::NotApplicable : CellState::Value;
        m_values[i] = r.value;
        if (r.reason.isEmpty())
            m_notes.erase(i);
        else
            m_notes[i] = r.reason;
        m_decisions[i] = r.decisions;
        changed = true;
    }
    if (changed)
        emitScoresChanged();
}

void SampleScoreModel::onJudgingFinished(bool cancelled, int failures, const QString &message)
{
    if (cancelled) {
        for (size_t i = 0; i < m_states.size(); ++i)
            if (m_states[i] == CellState::Pending) {
                m_states[i] = CellState::NotScored;
                m_notes[i] = tr("cancelled: re-score to ask the judge");
            }
        emitScoresChanged();
    }
    Q_EMIT judgingFinished(cancelled, failures, message);
}

void SampleScoreModel::emitScoresChanged()
{
    recomputeTotals();
    if (!m_records.empty())
        Q_EMIT dataChanged(index(0, FirstComponentColumn), index(rowCount() - 1, totalColumn()));
}

void SampleScoreModel::setJudge(std::shared_ptr<const rwb::widgets::JudgeSetup> judge, bool rescore)
{
    const bool had = m_judge != nullptr;
    m_judge = std::move(judge);
    if (rescore || had != (m_judge != nullptr)) {
        resetJudgeCells(allRows(), judgeComponents());
        emitScoresChanged();
    }
}

void SampleScoreModel::setComponentOptions(int component, const QString &options)
{
    if (component < 0 || component >= m_names.size() || m_options[static_cast<size_t>(component)] == options.toStdString())
        return;
    m_options[static_cast<size_t>(component)] = options.toStdString();
    if (m_isJudge[static_cast<size_t>(component)]) {
        resetJudgeCells(allRows(), {component});
        emitScoresChanged();
    } else {
        // A rule component made anew with its options, and its column scored again.
        beginResetModel();
        makeRewards();
        scoreRules();
        recomputeTotals();
        endResetModel();
    }
}

QString SampleScoreModel::componentOptions(int component) const
{
    return component >= 0 && component < m_names.size()
               ? QString::fromStdString(m_options[static_cast<size_t>(component)])
               : QString();
}

bool SampleScoreModel::isJudgeComponent(int component) const
{
    return component >= 0 && static_cast<size_t>(component) < m_isJudge.size() && m_isJudge[static_cast<size_t>(component)];
}

bool SampleScoreModel::hasJudgeComponents() const
{
    return std::find(m_isJudge.begin(), m_isJudge.end(), true) != m_isJudge.end();
}

void SampleScoreModel::setRubricOverride(const std::vector<int> &rows, std::shared_ptr<const rwb::judge::Rubric> rubric)
{
    std::vector<int> valid;
    for (int row : rows)
        if (row >= 0 && static_cast<size_t>(row) < m_records.size()) {
            m_overrides[static_cast<size_t>(row)] = rubric;
            valid.push_back(row);
        }
    // Every judge component of those rows: the ones that do not show the rubric are
    // answered from the client's memory at once.
    resetJudgeCells(valid, judgeComponents());
    emitScoresChanged();
}

std::shared_ptr<const rwb::judge::Rubric> SampleScoreModel::rubric(int row) const
{
    if (row < 0 || static_cast<size_t>(row) >= m_records.size())
        return nullptr;
    if (m_overrides[static_cast<size_t>(row)])
        return m_overrides[static_cast<size_t>(row)];
    const auto &example = m_records[static_cast<size_t>(row)].example;
    const auto *judged = dynamic_cast<const rwb::task::JudgedExample *>(example.get());
    const rwb::judge::Rubric *own = judged ? judged->judgeRubric() : nullptr;
    // Shares the example's ownership: the rubric lives as long as it.
    return own ? std::shared_ptr<const rwb::judge::Rubric>(example, own) : nullptr;
}

bool SampleScoreModel::hasRubricOverride(int row) const
{
    return row >= 0 && static_cast<size_t>(row) < m_overrides.size() && m_overrides[static_cast<size_t>(row)];
}

std::vector<int> SampleScoreModel::questionRows(int row) const
{
    std::vector<int> out;
    if (row < 0 || static_cast<size_t>(row) >= m_records.size())
        return out;
    const auto *mine = dynamic_cast<const rwb::task::JudgedExample *>(m_records[static_cast<size_t>(row)].example.get());
    if (!mine)
        return {row};
    const std::string question = mine->judgeQuestion();
    const std::string reference = mine->judgeReference();
    for (size_t r = 0; r < m_records.size(); ++r) {
        const auto *other = dynamic_cast<const rwb::task::JudgedExample *>(m_records[r].example.get());
        if (other && other->judgeQuestion() == question && other->judgeReference() == reference)
            out.push_back(static_cast<int>(r));
    }
    return out;
}

void SampleScoreModel::rescoreJudges()
{
    resetJudgeCells(allRows(), judgeComponents());
    emitScoresChanged();
}

void SampleScoreModel::cancelJudging()
{
    m_judgeTimer->stop();
    if (m_scorer->isRunning()) {
        m_scorer->cancel(); // finished(cancelled) turns the pending cells into "not scored"
        return;
    }
    onJudgingFinished(true, 0, QString()); // asked for, not started yet
}

bool SampleScoreModel::isJudging() const
{
    if (m_scorer->isRunning())
        return true;
    // Asked for in this turn of the event loop, not started yet.
    return m_judgeTimer->isActive() && m_judge &&
           std::find(m_states.begin(), m_states.end(), CellState::Pending) != m_states.end();
}

void SampleScoreModel::setJudgeLog(const QString &storePath)
{
    if (storePath == m_logPath)
        return;
    m_logPath = storePath;
    m_log.reset();
    m_logRun = 0;
    m_logStep = 0;
}

void SampleScoreModel::setWeights(const QVector<double> &weights)
{
    if (weights.size() != m_names.size() || weights == m_weights)
        return;
    const QVector<double> before = m_weights;
    m_weights = weights;
    // A judge component whose weight rises from 0 is asked for its cells; nothing else is
    // sent. One that falls to 0 is no longer asked for what it has not got yet.
    std::vector<int> raised;
    bool dropped = false;
    for (int c : judgeComponents()) {
        if (!(before[c] > 0.0) && weights[c] > 0.0)
            raised.push_back(c);
        if (before[c] > 0.0 && !(weights[c] > 0.0))
            for (size_t row = 0; row < m_records.size(); ++row) {
                const size_t i = cellIndex(static_cast<int>(row), c);
                if (m_states[i] == CellState::Pending) {
                    m_states[i] = CellState::NotScored;
                    m_versions[i] = ++m_lastVersion;
                    dropped = true;
                }
            }
    }
    if (dropped)
        scheduleJudging(); // the running job is replaced by one without them
    for (int c : raised) {
        std::vector<int> rows;
        for (size_t row = 0; row < m_records.size(); ++row)
            if (m_states[cellIndex(static_cast<int>(row), c)] == CellState::NotScored)
                rows.push_back(static_cast<int>(row));
        resetJudgeCells(rows, {c});
    }
    recomputeTotals();
    if (!m_records.empty())
        Q_EMIT dataChanged(index(0, raised.empty() && !dropped ? totalColumn() : FirstComponentColumn),
                           index(rowCount() - 1, totalColumn()));
    // Zero-weight columns are drawn dimmed.
    Q_EMIT headerDataChanged(Qt::Horizontal, FirstComponentColumn, totalColumn() - 1);
    if (!m_records.empty())
        Q_EMIT dataChanged(index(0, FirstComponentColumn), index(rowCount() - 1, totalColumn() - 1),
                           {Qt::ForegroundRole});
}

void SampleScoreModel::recomputeTotals()
{
    const size_t k = static_cast<size_t>(m_names.size());
    double den = 0.0;
    for (double w : std::as_const(m_weights))
        den += w;
    m_totals.assign(m_records.size(), 0.0);
    m_totalStates.assign(m_records.size(), CellState::Value);
    if (!(den > 0.0))
        return;
    for (size_t row = 0; row < m_records.size(); ++row) {
        double num = 0.0;
        bool none = false;
        CellState state = CellState::Value;
        for (size_t c = 0; c < k; ++c) {
            const double w = m_weights[static_cast<int>(c)];
            if (!(w > 0.0))
                continue; // a component weighed 0 counts for nothing, None or not
            const CellState s = m_states[row * k + c];
            if (s == CellState::Pending)
                state = CellState::Pending;
            else if (s != CellState::Value && state != CellState::Pending)
                state = CellState::NotScored;
            else if (s == CellState::Value && rwb::reward::isNone(m_values[row * k + c]))
                none = true;
            else
                num += w * m_values[row * k + c];
        }
        m_totalStates[row] = state;
        m_totals[row] = state != CellState::Value || none ? rwb::reward::kNone : num / den;
    }
}

QString SampleScoreModel::answer(int row) const
{
    return QString::fromStdString(m_completions[static_cast<size_t>(row)]->answer());
}

double SampleScoreModel::componentValue(int row, int component) const
{
    const size_t i = cellIndex(row, component);
    return m_states[i] == CellState::Value ? m_values[i] : rwb::reward::kNone;
}

CellState SampleScoreModel::cellState(int row, int component) const
{
    return m_states[cellIndex(row, component)];
}

QString SampleScoreModel::cellNote(int row, int component) const
{
    const size_t i = cellIndex(row, component);
    const auto note = m_notes.find(i);
    switch (m_states[i]) {
    case CellState::Value:
        return rwb::reward::isNone(m_values[i]) && note != m_notes.end() ? note->second : QString();
    case CellState::Pending:
        return tr("waiting for the judge");
    case CellState::NotScored:
        if (note != m_notes.end())
            return note->second;
        return tr("weight 0: not sent to the judge (give it a weight to score it)");
    case CellState::NoJudge:
        return tr("no judge is set up (Judge, in the reward components)");
    case CellState::NotApplicable:
        return note != m_notes.end() ? note->second : QString();
    }
    return {};
}

const std::vector<rwb::reward::JudgeDecision> &SampleScoreModel::judgeDecisions(int row, int component) const
{
    const auto it = m_decisions.find(cellIndex(row, component));
    return it == m_decisions.end() ? kNoDecisions : it->second;
}

std::vector<std::optional<double>> SampleScoreModel::rubricVerdicts(int row) const
{
    const std::shared_ptr<const rwb::judge::Rubric> r = rubric(row);
    if (!r)
        return {};
    std::vector<std::optional<double>> out(r->items.size());
    const int c = static_cast<int>(m_names.indexOf(QStringLiteral("rubric_explicit")));
    if (c < 0 || m_states[cellIndex(row, c)] != CellState::Value)
        return out;
    for (const rwb::reward::JudgeDecision &d : judgeDecisions(row, c)) {
        if (!d.error.empty())
            continue;
        if (d.part.rfind("items[", 0) == 0) { // per_item: the decision's value is c
            const size_t k = std::strtoul(d.part.c_str() + 6, nullptr, 10);
            if (k < out.size() && !rwb::reward::isNone(d.value))
                out[k] = d.value;
        } else { // all_items: c of each item in the verdict
            const nlohmann::json v = nlohmann::json::parse(d.verdict, nullptr, /*allow_exceptions=*/false);
            if (v.is_object() && v.contains("items") && v["items"].is_array())
                for (size_t k = 0; k < v["items"].size() && k < out.size(); ++k)
                    if (v["items"][k].contains("c") && v["items"][k]["c"].is_number())
                        out[k] = v["items"][k]["c"].get<double>();
        }
    }
    return out;
}

std::vector<rwb::reward::Explanation> SampleScoreModel::explain(int row) const
{
    std::vector<rwb::reward::Explanation> out;
    const auto i = static_cast<size_t>(row);
    for (int c = 0; c < m_names.size(); ++c) {
        if (m_rewards[static_cast<size_t>(c)]) {
            try {
                out.push_back(m_rewards[static_cast<size_t>(c)]->explain(*m_records[i].example, *m_completions[i]));
            } catch (const std::exception &ex) {
                rwb::reward::Explanation e;
                e.reward = m_names[c].toStdString();
                e.value = rwb::reward::kNone;
                e.detail = ex.what();
                e.error = ex.what();
                out.push_back(std::move(e));
            }
            continue;
        }
        if (!m_isJudge[static_cast<size_t>(c)]) {
            // A component that could not be made: why, for the detail view.
            rwb::reward::Explanation e;
            e.reward = m_names[c].toStdString();
            e.value = rwb::reward::kNone;
            e.detail = m_makeErrors[static_cast<size_t>(c)];
            e.error = e.detail;
            out.push_back(std::move(e));
            continue;
        }
        // A judge component: what its calls gave (none is sent here).
        rwb::reward::Explanation e;
        e.reward = m_names[c].toStdString();
        e.answer = m_completions[i]->answer();
        e.value = componentValue(row, c);
        e.decisions = judgeDecisions(row, c);
        e.reason = rwb::reward::isNone(e.value) ? rwb::reward::Reason::JudgeFailed : rwb::reward::Reason::JudgeVerdict;
        e.detail = cellNote(row, c).toStdString();
        out.push_back(std::move(e));
    }
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
    const bool isTotal = col == totalColumn();
    const int component = col - FirstComponentColumn;
    const CellState state = !isScore ? CellState::Value : isTotal ? totalState(row) : cellState(row, component);
    const double value = !isScore ? 0.0 : (isTotal ? total(row) : componentValue(row, component));
    const bool number = state == CellState::Value && !rwb::reward::isNone(value);

    switch (role) {
    case Qt::DisplayRole:
        switch (col) {
        case IdColumn: return QString::fromStdString(r.example->id());
        case KindColumn: return QString::fromStdString(r.kind);
        case AnswerColumn: return answer(row);
        case GoldColumn: return QString::fromStdString(r.example->goldText());
        default:
            if (state == CellState::Value)
                return RewardValue::format(value, 3);
            return state == CellState::Pending ? QStringLiteral("…") : QStringLiteral("—");
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
        if (isScore && number)
            return scoreTint(value, QGuiApplication::palette().color(QPalette::Base));
        return {};
    case Qt::ForegroundRole:
        if (isScore && !isTotal && m_weights.value(component) == 0.0)
            return QGuiApplication::palette().color(QPalette::Disabled, QPalette::Text);
        if (isScore && state == CellState::Value && !number)
            return QColor(0xc6, 0x28, 0x28); // None
        if (isScore && state != CellState::Value)
            return QGuiApplication::palette().color(QPalette::PlaceholderText);
        return {};
    case Qt::FontRole:
        if (isTotal) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::ToolTipRole:
        if (col == AnswerColumn)
            return QString::fromStdString(r.completion);
        if (isScore && !isTotal && !number)
            return cellNote(row, component);
        if (isTotal && state == CellState::Pending)
            return tr("waiting for the judge");
        if (isTotal && state == CellState::NotScored)
            return tr("a weighted component has no value");
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
        if (section >= FirstComponentColumn) {
            const int c = section - FirstComponentColumn;
            const QString description = RewardText::description(QString::fromStdString(m_rewardNames[static_cast<size_t>(c)]));
            return isJudgeComponent(c) ? tr("%1 Asked of the judge in the background, only while its weight is above 0.")
                                             .arg(description)
                                       : description;
        }
        if (section == KindColumn)
            return tr("The label of the bundled samples: what kind of candidate this completion is.");
    }
    return {};
}
