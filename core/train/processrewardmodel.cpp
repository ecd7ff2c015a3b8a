// R = rows (sequences), L = the longest sequence, H = hidden size.
#include "train/processrewardmodel.h"
#include "train/processrewardmodelinternals.h"

#include "data/jsonl.h"
#include "model/safetensors.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"
#include "util/boundedjson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace rwb::train {

namespace fs = std::filesystem;

namespace {

constexpr const char *kHeadFile = "prm_head.safetensors";
constexpr const char *kMetaFile = "prm.json";

void writeFile(const fs::path &path, const std::string &text)
{
    data::writeFileAtomically(path.string(), text);
}

} // namespace

torch::Tensor ProcessRewardModel::Internals::forwardScores(const std::vector<const PrmInput *> &rows)
{
    model::CausalLmInternals &d = lm->internals();
    int64_t longest = 0;
    int64_t ends = 0;
    for (const PrmInput *r : rows) {
        TORCH_CHECK(!r->tokens.empty(), "a PRM input without tokens");
        longest = std::max<int64_t>(longest, static_cast<int64_t>(r->tokens.size()));
        ends += static_cast<int64_t>(r->ends.size());
    }
    const int64_t n = static_cast<int64_t>(rows.size());
    std::vector<int64_t> ids(static_cast<size_t>(n * longest), pad), mask(static_cast<size_t>(n * longest), 0);
    std::vector<int64_t> at; // flat index (row · L + t) of every end
    at.reserve(static_cast<size_t>(ends));
    for (int64_t r = 0; r < n; ++r) {
        const PrmInput &in = *rows[static_cast<size_t>(r)];
        for (size_t t = 0; t < in.tokens.size(); ++t) {
            ids[static_cast<size_t>(r * longest) + t] = in.tokens[t];
            mask[static_cast<size_t>(r * longest) + t] = 1;
        }
        for (int64_t e : in.ends) {
            TORCH_CHECK(e >= 0 && e < static_cast<int64_t>(in.tokens.size()), "a PRM end ", e, " outside the ",
                        in.tokens.size(), " tokens");
            at.push_back(r * longest + e);
        }
    }
    const auto opts = torch::TensorOptions().dtype(torch::kInt64);
    const torch::Tensor idsT = torch::tensor(ids, opts).view({n, longest}).to(d.device);   // [R, L]
    const torch::Tensor maskT = torch::tensor(mask, opts).view({n, longest}).to(d.device); // [R, L]
    const torch::Tensor h = d.module->hidden(idsT, model::positionsFromMask(maskT), maskT, nullptr); // [R, L, H]
    const torch::Tensor picked =
        h.reshape({n * longest, h.size(2)}).index_select(0, torch::tensor(at, opts).to(d.device)); // [E, H]
    const torch::Dtype compute = model::computeDtype(d.dtype);
    return torch::nn::functional::linear(picked.to(compute), headWeight.to(compute), headBias.to(compute))
        .squeeze(-1); // [E]
}

ProcessRewardModel::ProcessRewardModel() : m_d(std::make_unique<Internals>()) {}
ProcessRewardModel::~ProcessRewardModel() = default;

std::unique_ptr<ProcessRewardModel> ProcessRewardModel::withDecoder(const std::string &folder,
                                                                    const model::ModelOptions &options)
{
    std::unique_ptr<ProcessRewardModel> p(new ProcessRewardModel());
    Internals &d = *p->m_d;
    d.lm = model::CausalLM::load(folder, options);
    d.tok = tokenizer::loadTokenizer(folder);
    d.format = std::make_unique<tokenizer::PromptFormat>(tokenizer::PromptFormat::forModel(folder, *d.tok));
    d.pad = d.tok->padId().value_or(d.tok->eosId().value_or(0));
    model::CausalLmInternals &li = d.lm->internals();
    const auto fp = torch::TensorOptions().dtype(model::computeDtype(li.dtype)).device(li.device);
    d.headWeight = torch::zeros({1, p->lm().config().hiddenSize}, fp).set_requires_grad(true); // [1, H]
    d.headBias = torch::zeros({1}, fp).set_requires_grad(true);                                 // [1]
    return p;
}

std::unique_ptr<ProcessRewardModel> ProcessRewardModel::fromPolicy(const std::string &folder,
                                                                   const model::ModelOptions &options, uint64_t seed,
                                                                   const task::Task &task)
{
    if (!task.steps())
        throw std::invalid_argument("a PRM reads the prompts of a task with steps; " + std::string(task.name()) +
                                    " has none");
    std::unique_ptr<ProcessRewardModel> p = withDecoder(folder, options);
    Internals &d = *p->m_d;
    d.task = &task;
    // The head's own generator: the global one (LoRA's start, dropout) is left alone.
    torch::Generator gen = torch::make_generator<torch::CPUGeneratorImpl>(seed);
    const torch::Tensor w = torch::randn({1, p->lm().config().hiddenSize}, gen, torch::TensorOptions().dtype(torch::kFloat64)) * 0.02;
    torch::NoGradGuard noGrad;
    d.headWeight.copy_(w);
    return p;
}

bool isPrmFolder(const std::string &folder) { return fs::exists(fs::path(folder) / kHeadFile); }

std::unique_ptr<ProcessRewardModel> ProcessRewardModel::load(const std::string &folder, const model::ModelOptions &options,
                                                             const task::Catalog &catalog)
{
    const fs::path headPath = fs::path(folder) / kHeadFile;
    if (!fs::exists(headPath))
        throw data::InputException({folder, 0, std::string("not a PRM folder: no ") + kHeadFile +
                                                   " (rwb prm train writes one; a policy folder has none)"});
    // Its task: prm.json's "task" (none in a folder without prm.json).
    const fs::path metaPath = fs::path(folder) / kMetaFile;
    std::string taskName;
    if (fs::exists(metaPath)) {
        const nlohmann::json meta = util::parseJsonOrDiscarded(data::readTextFile(metaPath.string()));
        if (!meta.is_object())
            throw data::InputException({metaPath.string(), 0, "not a JSON object"});
        if (const auto t = meta.find("task"); t != meta.end()) {
            if (!t->is_string())
                throw data::InputException({metaPath.string(), 0, "\"task\" must be a task's name"});
            taskName = t->get<std::string>();
        }
    }
    const task::Task &task = catalog.getWithSteps(taskName, metaPath.string(), "task");
    std::unique_ptr<ProcessRewardModel> p = withDecoder(folder, options);
    Internals &d = *p->m_d;
    d.task = &task;
    const model::SafetensorsFile file = model::SafetensorsFile::open(headPath.string());
    const int64_t hidden = p->lm().config().hiddenSize;
    torch::NoGradGuard noGrad;
    for (const auto &[name, tensor] : {std::pair<const char *, torch::Tensor *>{"score.weight", &d.headWeight},
                                       std::pair<const char *, torch::Tensor *>{"score.bias", &d.headBias}}) {
        const model::TensorView *view = file.find(name);
        if (!view)
            throw data::InputException({headPath.string(), 0, std::string("tensor ") + name + " missing"});
        model::copyStoredTensor(*tensor, *view, headPath.string(),
                                "the model's hidden size (" + std::to_string(hidden) + ")");
    }
    return p;
}

void ProcessRewardModel::save(const std::string &folder, const std::string &base, const std::string &metaJson)
{
    Internals &d = *m_d;
    if (d.lm->hasLora())
        d.lm->mergeLora();
    fs::create_directories(folder);
    d.lm->save(folder);
    tokenizer::copyTokenizerFiles(base, folder);
    const torch::Tensor w = d.headWeight.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    const torch::Tensor b = d.headBias.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    std::vector<model::TensorToWrite> tensors;
    for (const auto &[name, t] : {std::pair<const char *, const torch::Tensor *>{"score.weight", &w},
                                  std::pair<const char *, const torch::Tensor *>{"score.bias", &b}}) {
        model::TensorToWrite x;
        x.name = name;
        x.dtype = model::DType::F32;
        x.shape = t->sizes().vec();
        x.data = t->data_ptr();
        x.bytes = static_cast<size_t>(t->numel()) * sizeof(float);
        tensors.push_back(std::move(x));
    }
    model::writeSafetensors((fs::path(folder) / kHeadFile).string(), tensors, {{"format", "pt"}});
    nlohmann::ordered_json meta;
    meta["format"] = "rwb-prm";
    meta["version"] = 1;
    meta["base"] = base;
    meta["task"] = std::string(d.task->name());
    meta["score"] = "R = score.weight · h + score.bias, h the final (normed) hidden state at a step's last token";
    const nlohmann::ordered_json trained = util::parseJsonOrDiscarded<nlohmann::ordered_json>(metaJson);
    meta["trained"] = trained.is_discarded() ? nlohmann::ordered_json::object() : trained;
    writeFile(fs::path(folder) / kMetaFile, meta.dump(1) + "\n");
}

model::CausalLM &ProcessRewardModel::lm() { return *m_d->lm; }
const tokenizer::Tokenizer &ProcessRewardModel::tokenizer() const { return *m_d->tok; }
const tokenizer::PromptFormat &ProcessRewardModel::format() const { return *m_d->format; }
int32_t ProcessRewardModel::padToken() const { return m_d->pad; }
ProcessRewardModel::Internals &ProcessRewardModel::internals() { return *m_d; }

const task::Task &ProcessRewardModel::task() const { return *m_d->task; }

PrmInput ProcessRewardModel::input(const std::string &question, const std::vector<std::string> &steps) const
{
    const task::Task &task = *m_d->task;
    const std::shared_ptr<const task::Example> example = task.steps()->questionExample(question);
    PrmInput in;
    in.tokens = m_d->tok->encode(task.prompt(*example, *m_d->format, false));
    for (const std::string &s : steps) {
        const std::vector<int32_t> t = m_d->tok->encode(s);
        in.tokens.insert(in.tokens.end(), t.begin(), t.end());
        in.ends.push_back(static_cast<int64_t>(in.tokens.size()) - 1);
    }
    return in;
}

std::vector<std::vector<double>> ProcessRewardModel::score(const std::vector<PrmInput> &inputs, int batch) const
{
    torch::InferenceMode inference;
    std::vector<std::vector<double>> out;
    out.reserve(inputs.size());
    batch = std::max(1, batch);
    for (size_t from = 0; from < inputs.size(); from += static_cast<size_t>(batch)) {
        const size_t to = std::min(inputs.size(), from + static_cast<size_t>(batch));
        std::vector<const PrmInput *> rows;
        for (size_t i = from; i < to; ++i)
            rows.push_back(&inputs[i]);
        const torch::Tensor s = m_d->forwardScores(rows).to(torch::kCPU, torch::kFloat64).contiguous(); // [E]
        const double *p = s.data_ptr<double>();
        for (size_t i = from; i < to; ++i) {
            out.emplace_back(p, p + inputs[i].ends.size());
            p += inputs[i].ends.size();
        }
    }
    return out;
}

std::map<int, double> scoreTree(const ProcessRewardModel &prm, const mcts::SearchRecord &record, int batch)
{
    std::vector<std::vector<int>> paths;
    std::vector<PrmInput> inputs;
    for (const mcts::Node &n : record.tree.nodes()) {
        if (n.id == mcts::SearchTree::kRoot || !n.children.empty())
            continue;
        std::vector<int> path;
        for (int k = n.id; k > mcts::SearchTree::kRoot; k = record.tree.node(k).parent)
            path.push_back(k);
        std::reverse(path.begin(), path.end());
        std::vector<std::string> steps;
        for (int k : path)
            steps.push_back(record.tree.node(k).step);
        inputs.push_back(prm.input(record.question, steps));
        paths.push_back(std::move(path));
    }
    std::map<int, double> out;
    const std::vector<std::vector<double>> scores = prm.score(inputs, batch);
    for (size_t i = 0; i < paths.size(); ++i)
        for (size_t k = 0; k < paths[i].size(); ++k)
            out.emplace(paths[i][k], scores[i][k]);
    return out;
}

} // namespace rwb::train
