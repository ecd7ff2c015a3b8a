// GRPO's scoring: the task parses each completion, the reward config's weighted composite
// scores it (plus DAPO's over-long penalty), and the evaluation of the policy on held-out
// prompts with the task's metrics (grpotrainer.h).

#include "train/grpotrainer.h"

#include "store/runstore.h"
#include "tokenizer/tokenizer.h"
#include "train/overlongpenalty.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

namespace rwb::train::grpo {


namespace {

// Each item's notes (reward::ItemNote) as the JSON its details keep ("" none).
std::vector<std::string> notesPerItem(std::vector<reward::ItemNote> notes, size_t items)
{
    std::vector<nlohmann::ordered_json> perSample(items);
    for (reward::ItemNote &n : notes) {
        if (n.item >= items)
            continue;
        nlohmann::ordered_json &j = perSample[n.item];
        if (!n.error.empty())
            j["reward_errors"][n.component] = n.error;
        if (!n.extraJson.empty()) {
            const nlohmann::ordered_json extra = util::parseJsonOrDiscarded<nlohmann::ordered_json>(n.extraJson);
            if (extra.is_object() && !extra.empty())
                j["reward_extra"][n.component] = extra;
        }
    }
    std::vector<std::string> out(items);
    for (size_t i = 0; i < items; ++i)
        if (!perSample[i].empty())
            out[i] = perSample[i].dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return out;
}

// A rollout's notes as the JSON its details keep.
void addNotes(std::vector<Sample> &samples, std::vector<reward::ItemNote> notes)
{
    std::vector<std::string> perSample = notesPerItem(std::move(notes), samples.size());
    for (size_t i = 0; i < samples.size(); ++i)
        samples[i].notesJson = std::move(perSample[i]);
}

// `details` (a JSON object, or "") with the fields of `notes` (notesPerItem's) added.
std::string withNotes(const std::string &details, const std::string &notes)
{
    if (notes.empty())
        return details;
    nlohmann::ordered_json d = util::parseJsonOrDiscarded<nlohmann::ordered_json>(details.empty() ? "{}" : details);
    if (!d.is_object())
        d = nlohmann::ordered_json::object();
    const nlohmann::ordered_json n = util::parseJsonOrDiscarded<nlohmann::ordered_json>(notes);
    if (n.is_object())
        for (auto it = n.begin(); it != n.end(); ++it)
            d[it.key()] = it.value();
    return d.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace

void Trainer::score(std::vector<Sample> &samples, std::vector<std::pair<std::string, double>> *rewardMetrics) const
{
    std::vector<const task::Example *> examples;
    std::vector<const task::Completion *> completions;
    for (Sample &s : samples) {
        const task::Example &example = *m_train[s.item].example;
        s.parsed = m_task->parse(example, std::move(s.decoded), m_thinking);
        s.decoded.clear();
        examples.push_back(&example);
        completions.push_back(s.parsed.get());
    }
    std::vector<std::vector<double>> components;
    reward::ScoreLog log;
    const std::vector<double> totals = m_reward->scoreBatch(examples, completions, components, &log);
    for (size_t i = 0; i < samples.size(); ++i) {
        samples[i].reward = totals[i];
        samples[i].components = std::move(components[i]);
    }
    for (reward::JudgeDecision &d : log.take())
        samples[d.item].decisions.push_back(std::move(d));
    addNotes(samples, log.takeNotes());
    if (rewardMetrics)
        for (auto &m : log.takeMetrics())
            rewardMetrics->push_back(std::move(m));
    if (c.overlongPenalty) {
        std::vector<double> lengths;
        for (const Sample &s : samples)
            lengths.push_back(static_cast<double>(s.policyTokens));
        const torch::Tensor p = overlongPenalty(torch::tensor(lengths, torch::kFloat64), c.maxNewTokens, c.overlongCache);
        for (size_t i = 0; i < samples.size(); ++i) {
            samples[i].overlong = p[static_cast<int64_t>(i)].item<double>();
            samples[i].reward += samples[i].overlong;
        }
    }
}

Metrics Trainer::evaluate(int stepIndex)
{
    const auto t0 = Clock::now();
    RolloutOptions ro = rolloutOptions(/*evaluation=*/true);
    ro.sampling.temperature = 0.0;
    ro.sampling.maxNewTokens = c.evalMaxNewTokens > 0 ? c.evalMaxNewTokens : c.maxNewTokens;
    m_lm->internals().module->eval();
    // This rank's batches: the ones one process makes, so that each prediction is the
    // one process's (greedy, the same rows padded together).
    const auto batch = static_cast<size_t>(c.evalBatch);
    const auto [firstBatch, lastBatch] = batchShare((m_eval.size() + batch - 1) / batch);
    std::vector<EvalRow> mine;
    for (size_t from = firstBatch * batch; from < std::min(m_eval.size(), lastBatch * batch); from += batch) {
        const size_t to = std::min(m_eval.size(), from + batch);
        std::vector<std::vector<int32_t>> prompts;
        std::vector<const task::Example *> examples;
        for (size_t i = from; i < to; ++i) {
            prompts.push_back(m_eval[i].promptIds);
            examples.push_back(m_eval[i].example.get());
        }
        std::vector<RolloutRow> rows = generateRollouts(*m_lm, *m_tok, examples, prompts, 1, ro);
        std::vector<std::unique_ptr<task::Completion>> parsed;
        std::vector<const task::Completion *> completions;
        for (size_t k = 0; k < rows.size(); ++k) {
            parsed.push_back(m_task->parse(*examples[k], rows[k].text, m_thinking));
            completions.push_back(parsed.back().get());
        }
        std::vector<std::vector<double>> components;
        reward::ScoreLog log;
        const std::vector<double> totals = m_reward->scoreBatch(examples, completions, components, &log);
        std::vector<std::vector<reward::JudgeDecision>> decisions(examples.size());
        for (reward::JudgeDecision &d : log.take())
            decisions[d.item].push_back(std::move(d));
        std::vector<std::string> notes = notesPerItem(log.takeNotes(), examples.size());
        for (size_t k = 0; k < rows.size(); ++k) {
            mine.push_back(EvalRow{from + k, std::move(rows[k].text), rows[k].policyTokens, totals[k],
                                   std::move(components[k]), std::move(decisions[k]), std::move(parsed[k])});
            mine.back().notesJson = std::move(notes[k]);
        }
    }
    std::vector<EvalRow> all = shareEvalRows(std::move(mine));
    if (rank() != 0) {
        m_timings.eval += secondsSince(t0);
        return {};
    }

    // Rank 0: every prediction, in the eval set's order.
    const std::unique_ptr<task::MetricSet> metrics = m_task->metrics();
    std::vector<store::EvalPrediction> predictions;
    std::vector<double> rewards;
    double outputTokens = 0.0;
    double judgeFailures = 0.0;
    for (EvalRow &row : all) {
        const task::Example &example = *m_eval[row.index].example;
        const std::unique_ptr<task::Completion> reparsed =
            row.parsed ? nullptr : m_task->parse(example, row.text, m_thinking); // another rank's
        const task::Completion *parsed = row.parsed ? row.parsed.get() : reparsed.get();
        outputTokens += static_cast<double>(row.policyTokens);
        for (const reward::JudgeDecision &d : row.decisions)
            judgeFailures += d.error.empty() ? 0.0 : 1.0;
        metrics->add(example, *parsed);
        rewards.push_back(row.reward);
        store::EvalPrediction p;
        p.exampleId = example.id();
        p.prediction = parsed->text();
        p.gold = example.goldText();
        p.correct = metrics->correct(example, *parsed);
        p.rewardsJson = rewardsJson(row.components);
        // What the task parsed, and why a reward component gave no value (the failure
        // explorer's grader failures).
        p.detailsJson = withNotes(parsed->detailsJson(), row.notesJson);
        p.judgeDecisions = std::move(row.decisions);
        predictions.push_back(std::move(p));
    }
    m_store->writeEvalPredictions(m_state.runId, stepIndex, predictions);
    const double n = static_cast<double>(std::max<size_t>(1, m_eval.size()));
    m_timings.eval += secondsSince(t0);
    Metrics out;
    for (const auto &[name, value] : metrics->result())
        out.emplace_back("eval/" + name, value);
    out.emplace_back("eval/reward", meanOf(rewards));
    out.emplace_back("eval/mean_output_tokens", outputTokens / n);
    out.emplace_back("eval/seconds_per_sample", secondsSince(t0) / n);
    if (m_judged)
        out.emplace_back("eval/judge_failures", judgeFailures);
    return out;
}

} // namespace rwb::train::grpo
