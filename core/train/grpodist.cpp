// GRPO over several processes (data parallel, docs/scale.md): what the ranks of a
// dist::ProcessGroup share each step (grpotrainer.h).
//
//   sampling   each rank samples and scores a contiguous share of the round's groups
//              (rows drawn from their own streams, model/rowdraw.h, so the share samples
//              what one process would); then every rank gets every sample, so that the
//              choice of groups (dynamic sampling), the advantages and the metrics are the
//              one process's
//   update     each rank takes a contiguous share of the micro-batches, with the whole
//              batch's normalizers (policygradient.h); the gradients are summed over the
//              ranks, and every rank clips and steps the same optimizer identically
//   bookkeeping rank 0 gathers the rows' log-probs and entropies and the update's sums and
//              alone writes the run store and the checkpoints

#include "train/grpotrainer.h"

#include "dist/processgroup.h"
#include "engine/job.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace rwb::train::grpo {

namespace {

using Json = nlohmann::json;

// A completion parsed by another rank: its text, answer and details as that rank's task
// made them (all the bookkeeping reads).
class SharedCompletion : public task::Completion {
public:
    SharedCompletion(std::string text, std::string answer, std::string details)
        : m_text(std::move(text)), m_answer(std::move(answer)), m_details(std::move(details))
    {
    }
    const std::string &text() const override { return m_text; }
    const std::string &answer() const override { return m_answer; }
    std::string detailsJson() const override { return m_details; }

private:
    std::string m_text, m_answer, m_details;
};

Json decisionJson(const reward::JudgeDecision &d)
{
    return Json{{"item", d.item},
                {"reward", d.reward},
                {"part", d.part},
                {"backend", d.backend},
                {"request", d.request},
                {"reply", d.reply},
                {"verdict", d.verdict},
                {"error", d.error},
                {"value", d.value},
                {"latency", d.latencySeconds},
                {"prompt_tokens", d.promptTokens},
                {"completion_tokens", d.completionTokens},
                {"cost", d.cost},
                {"cache_hit", d.cacheHit},
                {"attempts", d.attempts}};
}

reward::JudgeDecision decisionFrom(const Json &j)
{
    reward::JudgeDecision d;
    d.item = j.at("item").get<size_t>();
    d.reward = j.at("reward").get<std::string>();
    d.part = j.at("part").get<std::string>();
    d.backend = j.at("backend").get<std::string>();
    d.request = j.at("request").get<std::string>();
    d.reply = j.at("reply").get<std::string>();
    d.verdict = j.at("verdict").get<std::string>();
    d.error = j.at("error").get<std::string>();
    d.value = j.at("value").get<double>();
    d.latencySeconds = j.at("latency").get<double>();
    d.promptTokens = j.at("prompt_tokens").get<int64_t>();
    d.completionTokens = j.at("completion_tokens").get<int64_t>();
    d.cost = j.at("cost").get<double>();
    d.cacheHit = j.at("cache_hit").get<bool>();
    d.attempts = j.at("attempts").get<int>();
    return d;
}

Json decisionsJson(const std::vector<reward::JudgeDecision> &decisions)
{
    Json all = Json::array();
    for (const reward::JudgeDecision &d : decisions)
        all.push_back(decisionJson(d));
    return all;
}

std::vector<reward::JudgeDecision> decisionsFrom(const Json &all)
{
    std::vector<reward::JudgeDecision> out;
    for (const Json &d : all)
        out.push_back(decisionFrom(d));
    return out;
}

// Every rank's `mine`, indexed by rank. CBOR keeps NaN (a None reward) and the floats'
// bits, which JSON text would not.
std::vector<Json> allGatherJson(dist::ProcessGroup &group, const Json &mine)
{
    const std::vector<uint8_t> bytes = Json::to_cbor(mine);
    std::vector<Json> out;
    for (const std::string &b : group.allGather(std::string(bytes.begin(), bytes.end())))
        out.push_back(Json::from_cbor(b.begin(), b.end()));
    return out;
}

Json encodeSamples(const std::vector<Sample> &samples)
{
    Json all = Json::array();
    for (const Sample &s : samples) {
        all.push_back(Json{{"item", s.item},
                           {"tokens", s.tokens},
                           {"logprobs", s.samplingLogProbs},
                           {"environment", s.fromEnvironment},
                           {"policy_tokens", s.policyTokens},
                           {"truncated", s.truncated},
                           {"text", s.parsed->text()},
                           {"answer", s.parsed->answer()},
                           {"details", s.parsed->detailsJson()},
                           {"components", s.components},
                           {"overlong", s.overlong},
                           {"reward", s.reward},
                           {"decisions", decisionsJson(s.decisions)},
                           {"notes", s.notesJson}});
    }
    return all;
}

std::vector<Sample> decodeSamples(const Json &all)
{
    std::vector<Sample> out;
    for (const Json &j : all) {
        Sample s;
        s.item = j.at("item").get<size_t>();
        s.tokens = j.at("tokens").get<std::vector<int32_t>>();
        s.samplingLogProbs = j.at("logprobs").get<std::vector<float>>();
        s.fromEnvironment = j.at("environment").get<std::vector<uint8_t>>();
        s.policyTokens = j.at("policy_tokens").get<int>();
        s.truncated = j.at("truncated").get<bool>();
        s.parsed = std::make_unique<SharedCompletion>(j.at("text").get<std::string>(), j.at("answer").get<std::string>(),
                                                      j.at("details").get<std::string>());
        s.components = j.at("components").get<std::vector<double>>();
        s.overlong = j.at("overlong").get<double>();
        s.reward = j.at("reward").get<double>();
        s.decisions = decisionsFrom(j.at("decisions"));
        s.notesJson = j.value("notes", std::string());
        out.push_back(std::move(s));
    }
    return out;
}

// The ranks' contiguous shares of n things: rank k gets [k·n/N, (k+1)·n/N).
std::pair<size_t, size_t> shareOf(size_t n, int rank, int world)
{
    const auto k = static_cast<size_t>(rank), w = static_cast<size_t>(world);
    return {k * n / w, (k + 1) * n / w};
}

} // namespace

int Trainer::rank() const
{
    return m_group ? m_group->rank() : 0;
}

int Trainer::worldSize() const
{
    return m_group ? m_group->worldSize() : 1;
}

std::pair<size_t, size_t> Trainer::groupShare(size_t groups) const
{
    return shareOf(groups, rank(), worldSize());
}

std::pair<size_t, size_t> Trainer::batchShare(size_t batches) const
{
    return shareOf(batches, rank(), worldSize());
}

std::pair<size_t, size_t> Trainer::rowShare(size_t rows) const
{
    const auto m = static_cast<size_t>(microRows());
    const size_t micro = (rows + m - 1) / m;
    const auto [first, last] = shareOf(micro, rank(), worldSize());
    return {std::min(rows, first * m), std::min(rows, last * m)};
}

void Trainer::syncModel()
{
    if (worldSize() == 1)
        return;
    // Every rank loads the model itself; a folder that differs between machines (another
    // checkpoint, another size) is named before any step rather than trained on.
    torch::NoGradGuard noGrad;
    std::string shape;
    double sum = 0.0;
    for (const auto &p : m_lm->internals().module->named_parameters()) {
        shape += p.key() + ":";
        for (int64_t s : p.value().sizes())
            shape += std::to_string(s) + ",";
        shape += ";";
        sum += p.value().to(torch::kFloat64).sum().item<double>();
    }
    const Json mine{{"shape", shape}, {"sum", sum}, {"model", c.model}};
    const std::vector<Json> all = allGatherJson(*m_group, mine);
    const Json &root = all[0];
    for (size_t k = 1; k < all.size(); ++k) {
        const Json &other = all[k];
        if (other.at("shape") != root.at("shape"))
            throw std::runtime_error("rank " + std::to_string(k) + "'s model (" + other.at("model").get<std::string>() +
                                     ") has other parameters than rank 0's (" + root.at("model").get<std::string>() +
                                     "): every rank must load the same model");
        const double a = root.at("sum").get<double>(), b = other.at("sum").get<double>();
        if (std::abs(a - b) > 1e-6 * std::max(1.0, std::abs(a)))
            throw std::runtime_error("rank " + std::to_string(k) + "'s model (" + other.at("model").get<std::string>() +
                                     ") has other weights than rank 0's (" + root.at("model").get<std::string>() +
                                     "): every rank must load the same model folder");
    }
    // The trainable weights start as rank 0's (a LoRA adapter's initialisation included).
    std::vector<at::Tensor> trainable;
    for (const torch::Tensor &p : m_params)
        trainable.push_back(p.detach().is_cuda() ? p.detach().cpu() : p.detach());
    m_group->broadcast(trainable);
    for (size_t i = 0; i < m_params.size(); ++i)
        if (m_params[i].is_cuda())
            m_params[i].detach().copy_(trainable[i]);
}

std::vector<Sample> Trainer::shareSamples(std::vector<Sample> mine)
{
    if (worldSize() == 1)
        return mine;
    const std::vector<Json> all = allGatherJson(*m_group, encodeSamples(mine));
    std::vector<Sample> out;
    for (int k = 0; k < worldSize(); ++k) {
        if (k == rank()) {
            out.insert(out.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
            continue;
        }
        std::vector<Sample> theirs = decodeSamples(all[static_cast<size_t>(k)]);
        out.insert(out.end(), std::make_move_iterator(theirs.begin()), std::make_move_iterator(theirs.end()));
    }
    return out;
}

std::vector<Trainer::EvalRow> Trainer::shareEvalRows(std::vector<EvalRow> mine)
{
    if (worldSize() == 1)
        return mine;
    Json rows = Json::array();
    for (const EvalRow &r : mine)
        rows.push_back(Json{{"index", r.index},
                            {"text", r.text},
                            {"policy_tokens", r.policyTokens},
                            {"reward", r.reward},
                            {"components", r.components},
                            {"decisions", decisionsJson(r.decisions)},
                            {"notes", r.notesJson}});
    const std::vector<Json> all = allGatherJson(*m_group, rows);
    std::vector<EvalRow> out;
    for (int k = 0; k < worldSize(); ++k) {
        if (k == rank()) {
            out.insert(out.end(), std::make_move_iterator(mine.begin()), std::make_move_iterator(mine.end()));
            continue;
        }
        for (const Json &j : all[static_cast<size_t>(k)]) {
            out.push_back(EvalRow{j.at("index").get<size_t>(), j.at("text").get<std::string>(),
                                  j.at("policy_tokens").get<int>(), j.at("reward").get<double>(),
                                  j.at("components").get<std::vector<double>>(), decisionsFrom(j.at("decisions"))});
            out.back().notesJson = j.value("notes", std::string());
        }
    }
    return out;
}

std::vector<std::vector<double>> Trainer::shareRowScores(const std::vector<std::vector<double>> &mine, size_t from,
                                                         size_t rows)
{
    if (worldSize() == 1)
        return mine;
    std::vector<std::vector<double>> out(rows);
    for (const Json &j : allGatherJson(*m_group, Json{{"from", from}, {"scores", mine}})) {
        size_t r = j.at("from").get<size_t>();
        for (const Json &scores : j.at("scores"))
            out.at(r++) = scores.get<std::vector<double>>();
    }
    return out;
}

void Trainer::allReduceGradients()
{
    if (worldSize() == 1)
        return;
    // A rank without a micro-batch this step (fewer micro-batches than ranks) adds zeros.
    std::vector<at::Tensor> grads;
    bool onDevice = false;
    for (torch::Tensor &p : m_params) {
        if (!p.grad().defined())
            p.mutable_grad() = torch::zeros_like(p);
        onDevice = onDevice || p.grad().is_cuda();
        grads.push_back(p.grad().is_cuda() ? p.grad().cpu() : p.grad());
    }
    m_group->allReduceSum(grads); // Gloo sums on the CPU; NCCL is the plan for GPUs (docs/scale.md)
    if (onDevice)
        for (size_t i = 0; i < m_params.size(); ++i)
            if (m_params[i].grad().is_cuda())
                m_params[i].mutable_grad().copy_(grads[i]);
}

void Trainer::gatherUpdate(UpdateResult &u, size_t from, size_t to)
{
    if (worldSize() == 1)
        return;
    const std::vector<double> sums = m_group->sumValues(
        {u.policyLoss, u.clipLow, u.clipHigh, u.clipRegion, u.kl, u.updateTokens, u.entropy, u.tokens});
    u.policyLoss = sums[0];
    u.clipLow = sums[1];
    u.clipHigh = sums[2];
    u.clipRegion = sums[3];
    u.kl = sums[4];
    u.updateTokens = sums[5];
    u.entropy = sums[6];
    u.tokens = sums[7];
    // The other ranks' rows, for rank 0's store (rank 0 has its own; nobody else writes),
    // with each rank's clip-ratio extremes (null for a rank without active tokens).
    Json rows = Json::array();
    for (size_t r = from; r < to && rank() != 0; ++r)
        rows.push_back(Json{{"old", u.oldLogProbs[r]},
                            {"new", u.newLogProbs[r]},
                            {"ref", u.refLogProbs[r]},
                            {"entropy", u.entropies[r]}});
    const std::vector<Json> all = allGatherJson(
        *m_group, Json{{"from", from},
                       {"rows", std::move(rows)},
                       {"low_min", std::isfinite(u.clipLowMin) ? Json(u.clipLowMin) : Json()},
                       {"high_max", std::isfinite(u.clipHighMax) ? Json(u.clipHighMax) : Json()}});
    for (const Json &j : all) { // every rank's metrics agree, as the sums above do
        if (j.at("low_min").is_number())
            u.clipLowMin = std::min(u.clipLowMin, j.at("low_min").get<double>());
        if (j.at("high_max").is_number())
            u.clipHighMax = std::max(u.clipHighMax, j.at("high_max").get<double>());
    }
    if (rank() != 0)
        return;
    for (int k = 1; k < worldSize(); ++k) {
        const Json &j = all[static_cast<size_t>(k)];
        size_t r = j.at("from").get<size_t>();
        for (const Json &row : j.at("rows")) {
            u.oldLogProbs[r] = row.at("old").get<std::vector<float>>();
            u.newLogProbs[r] = row.at("new").get<std::vector<float>>();
            u.refLogProbs[r] = row.at("ref").get<std::vector<float>>();
            u.entropies[r] = row.at("entropy").get<std::vector<float>>();
            ++r;
        }
    }
}

Trainer::StepCommand Trainer::stepCommand(int stepIndex)
{
    StepCommand command;
    if (rank() == 0) {
        command.go = m_control.waitAtBoundary([&] { m_sink.paused(stepIndex - 1); });
        if (command.go)
            command.weights = m_control.takeRewardWeights();
    }
    if (worldSize() == 1)
        return command;
    Json j{{"go", command.go}};
    if (command.weights)
        j["weights"] = *command.weights;
    // The others wait here while rank 0 writes a checkpoint or is paused: up to a day (a
    // rank that stops is still seen at once).
    const std::string bytes = m_group->broadcastBytes(rank() == 0 ? j.dump() : std::string(), 0, std::chrono::hours(24));
    if (rank() != 0) {
        const Json r = Json::parse(bytes);
        command.go = r.at("go").get<bool>();
        if (r.contains("weights"))
            command.weights = r.at("weights").get<std::vector<double>>();
    }
    return command;
}

} // namespace rwb::train::grpo
