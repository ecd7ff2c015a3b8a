// Loading and saving models and LoRA adapters (CausalLM::load / save / saveAdapter /
// loadAdapter): Hugging Face and PEFT layouts through the safetensors reader.
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/precision.h"
#include "model/safetensors.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <thread>

namespace rwb::model {

namespace fs = std::filesystem;

namespace {

std::string shapeText(const std::vector<int64_t> &shape)
{
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

torch::Dtype torchDtypeOf(DType d, const std::string &where)
{
    switch (d) {
    case DType::F32: return torch::kFloat32;
    case DType::BF16: return torch::kBFloat16;
    case DType::F16: return torch::kFloat16;
    case DType::F64: return torch::kFloat64;
    default:
        throw data::InputException({where, 0, std::string("dtype ") + std::string(dtypeName(d)) +
                                                  " cannot hold weights (F32, F16, BF16 or F64 expected)"});
    }
}

// The dtype a tensor is written in: its own for BF16, F16, F32 and F64 (a float64 model's
// adapters are float64), else float32.
DType storedDtype(torch::Dtype d)
{
    switch (d) {
    case torch::kBFloat16: return DType::BF16;
    case torch::kFloat16: return DType::F16;
    case torch::kFloat64: return DType::F64;
    default: return DType::F32;
    }
}

void writeText(const fs::path &path, const std::string &text)
{
    data::writeFileAtomically(path.string(), text);
}

// Contiguous CPU copies kept alive while writing.
std::vector<TensorToWrite> toWrite(const std::vector<std::pair<std::string, torch::Tensor>> &named,
                                   std::vector<torch::Tensor> &keep)
{
    std::vector<TensorToWrite> out;
    for (const auto &[name, t] : named) {
        torch::Tensor cpu = t.detach().to(torch::kCPU);
        if (cpu.scalar_type() != torch::kBFloat16 && cpu.scalar_type() != torch::kFloat16 &&
            cpu.scalar_type() != torch::kFloat64)
            cpu = cpu.to(torch::kFloat32);
        keep.push_back(cpu.contiguous());
        const torch::Tensor &c = keep.back();
        TensorToWrite w;
        w.name = name;
        w.dtype = storedDtype(c.scalar_type());
        w.shape = c.sizes().vec();
        w.data = c.data_ptr();
        w.bytes = static_cast<size_t>(c.numel()) * c.element_size();
        out.push_back(std::move(w));
    }
    return out;
}

} // namespace

void copyStoredTensor(torch::Tensor &param, const TensorView &view, const std::string &source, const std::string &shapeSource)
{
    const std::vector<int64_t> want = param.sizes().vec();
    if (view.shape != want)
        throw data::InputException({source, 0, "tensor " + view.name + " has shape " + shapeText(view.shape) +
                                                   ", " + shapeSource + " needs " + shapeText(want)});
    const torch::Dtype dt = torchDtypeOf(view.dtype, source + ": tensor " + view.name);
    // The mapping is only as aligned as the file lays it out: copy unaligned data first.
    torch::Tensor stored;
    if (reinterpret_cast<uintptr_t>(view.data) % dtypeSize(view.dtype) == 0) {
        stored = torch::from_blob(const_cast<uint8_t *>(view.data), view.shape, torch::TensorOptions().dtype(dt));
    } else {
        stored = torch::empty(view.shape, torch::TensorOptions().dtype(dt));
        std::memcpy(stored.data_ptr(), view.data, view.bytes);
    }
    torch::NoGradGuard noGrad;
    // Straight into the parameter's dtype: through float32 a float64 file lost its last 29
    // bits (found by comparing an adapter's logits with PEFT's: 1.5e-7 relative).
    param.copy_(stored.to(param.scalar_type()));
}

std::unique_ptr<CausalLM> CausalLM::load(const std::string &folder, const ModelOptions &options)
{
    const ModelConfig config = loadModelConfig(folder);
    const SafetensorsModel weights = SafetensorsModel::open(folder);
    std::unique_ptr<CausalLM> lm(new CausalLM);
    CausalLmInternals &d = *lm->m_d;
    applyThreads(options.threads);
    d.module = Transformer(config, /*randomInit=*/false);
    d.dtype = parseDtype(resolveDtype(options.dtype, config.torchDtype, options.device));
    d.sourceFolder = fs::absolute(folder).lexically_normal().string();
    if (!d.sourceFolder.empty() && d.sourceFolder.back() == '/')
        d.sourceFolder.pop_back();
    const std::string source = (fs::path(folder) / "model.safetensors").string();
    // Weights of layers the config does not have: a config that does not match its weights
    // (the loader would otherwise run the first num_hidden_layers layers and drop the rest).
    for (const std::string &name : weights.names()) {
        static constexpr std::string_view kLayers = "model.layers.";
        if (name.compare(0, kLayers.size(), kLayers) != 0)
            continue;
        int64_t index = -1;
        const char *digits = name.data() + kLayers.size();
        const auto parsed = std::from_chars(digits, name.data() + name.size(), index);
        if (parsed.ec != std::errc{} || parsed.ptr == digits || *parsed.ptr != '.')
            continue;
        if (index >= config.numLayers)
            throw data::InputException(
                {source, 0,
                 "holds " + name + " but " + (fs::path(folder) / "config.json").string() + " says num_hidden_layers " +
                     std::to_string(config.numLayers) + ": the weights and the config do not match"});
    }
    for (auto &p : d.module->named_parameters()) {
        const TensorView *view = weights.find(p.key());
        if (!view)
            weights.require(p.key()); // throws, naming the file or index that should hold it
        copyStoredTensor(p.value(), *view, source);
    }
    d.device = pickDevice(options.device);
    d.module->to(d.device, d.dtype);
    d.module->eval();
    return lm;
}

void CausalLM::save(const std::string &folder) const
{
    fs::create_directories(folder);
    std::vector<std::pair<std::string, torch::Tensor>> named;
    for (const auto &p : m_d->module->named_parameters())
        named.emplace_back(p.key(), p.value());
    std::vector<torch::Tensor> keep;
    writeSafetensors((fs::path(folder) / "model.safetensors").string(), toWrite(named, keep), {{"format", "pt"}});
    ModelConfig c = m_d->module->config();
    c.torchDtype = dtypeName();
    writeText(fs::path(folder) / "config.json", toJson(c));
}

void CausalLM::saveAdapter(const std::string &folder) const
{
    if (!m_d->hasLora)
        throw std::runtime_error("the model has no LoRA adapters to save");
    fs::create_directories(folder);
    std::vector<torch::Tensor> keep;
    writeSafetensors((fs::path(folder) / "adapter_model.safetensors").string(), toWrite(m_d->loraTensors(), keep),
                     {{"format", "pt"}});
    const LoraOptions &lora = m_d->lora;
    nlohmann::ordered_json j;
    j["peft_type"] = "LORA";
    j["task_type"] = "CAUSAL_LM";
    // PEFT's AutoPeftModelForCausalLM opens the base model from here: the folder the model
    // was loaded from, absolute, so that the adapter opens from any working folder.
    j["base_model_name_or_path"] = m_d->sourceFolder.empty() ? nlohmann::ordered_json(nullptr)
                                                             : nlohmann::ordered_json(m_d->sourceFolder);
    j["r"] = lora.rank;
    j["lora_alpha"] = lora.alpha;
    j["lora_dropout"] = lora.dropout;
    if (lora.targetRegex.empty())
        j["target_modules"] = lora.targetModules;
    else
        j["target_modules"] = lora.targetRegex;
    j["use_rslora"] = lora.rslora;
    j["rank_pattern"] = nlohmann::ordered_json::object();
    for (const auto &[key, value] : lora.rankPattern)
        j["rank_pattern"][key] = value;
    j["alpha_pattern"] = nlohmann::ordered_json::object();
    for (const auto &[key, value] : lora.alphaPattern)
        j["alpha_pattern"][key] = value;
    j["use_dora"] = false;
    j["bias"] = "none";
    j["lora_bias"] = false;
    j["modules_to_save"] = nullptr;
    j["fan_in_fan_out"] = false;
    j["inference_mode"] = true;
    writeText(fs::path(folder) / "adapter_config.json", j.dump(2) + "\n");
}

namespace {

// A regex from an adapter_config.json field, checked here so that a pattern std::regex
// cannot read is reported against the file and field.
void checkRegex(const std::string &pattern, const std::string &configPath, const std::string &field)
{
    try {
        std::regex re(pattern);
    } catch (const std::regex_error &e) {
        throw data::InputException({configPath, 0, field + ": not a regular expression this reader understands (" +
                                                       pattern + "): " + e.what()});
    }
}

} // namespace

void CausalLM::loadAdapter(const std::string &folder)
{
    const std::string configPath = (fs::path(folder) / "adapter_config.json").string();
    nlohmann::json j;
    try {
        j = util::parseJson(data::readTextFile(configPath));
    } catch (const nlohmann::json::exception &e) {
        throw data::InputException({configPath, 0, std::string("not valid JSON: ") + e.what()});
    }
    if (!j.is_object())
        throw data::InputException({configPath, 0, "not a JSON object"});
    auto fail = [&](const std::string &message) { throw data::InputException({configPath, 0, message}); };
    auto need = [&](const char *key) -> const nlohmann::json & {
        auto it = j.find(key);
        if (it == j.end())
            fail(std::string(key) + ": missing");
        return *it;
    };
    if (j.value("peft_type", std::string("LORA")) != "LORA")
        fail("peft_type: only LORA adapters are supported");
    // What PEFT computes differently from plain LoRA and this engine does not is refused by
    // name, never loaded as if it were plain LoRA. Fields read below, and fields that only
    // describe the file or PEFT's own initialisation, are accepted; any other field that is
    // set (not null, false or empty), including ones of PEFT versions after this
    // reader, is refused: an unknown option may change what the adapter computes.
    auto isSet = [&](const nlohmann::json &v) {
        return !v.is_null() && !(v.is_boolean() && !v.get<bool>()) && !((v.is_array() || v.is_object()) && v.empty()) &&
               !(v.is_string() && v.get<std::string>().empty());
    };
    static const std::set<std::string> kRead = {"peft_type", "r", "lora_alpha", "lora_dropout", "target_modules",
                                                "use_rslora", "rank_pattern", "alpha_pattern", "bias", "init_lora_weights"};
    static const std::set<std::string> kInert = {
        "task_type", "base_model_name_or_path", "revision", "inference_mode", "auto_mapping", "peft_version",
        "megatron_core", "megatron_config", "qalora_group_size", "ensure_weight_tying", "eva_config", "corda_config",
        "lora_ga_config"};
    static const std::map<std::string, std::string> kRefused = {
        {"use_dora", "DoRA adapters (a magnitude vector per module) are not supported; merge the adapter in PEFT "
                     "(merge_and_unload) and load the merged model instead"},
        {"modules_to_save", "adapters that carry whole trained modules are not supported; merge the adapter in PEFT "
                            "(merge_and_unload) and load the merged model instead"},
        {"lora_bias", "adapters with a bias on lora_B are not supported"},
        {"fan_in_fan_out", "only false is supported (GPT-2's Conv1D layout)"},
        {"alora_invocation_tokens", "activated LoRA (adapters that switch on after invocation tokens) is not supported"},
        {"loftq_config", "LoftQ adapters belong to quantized base weights this engine does not make"},
        {"use_qalora", "QA-LoRA adapters are not supported"},
    };
    for (const auto &[key, value] : j.items()) {
        if (kRead.count(key) || kInert.count(key) || !isSet(value))
            continue;
        auto refused = kRefused.find(key);
        fail(key + ": " + (refused != kRefused.end() ? refused->second
                                                      : std::string("an option this engine does not apply (set here "
                                                                    "to ") + value.dump() + ")"));
    }
    if (j.contains("bias") && !(j["bias"].is_string() && j["bias"].get<std::string>() == "none"))
        fail("bias: only \"none\" is supported (the adapter trained the base model's biases, which it carries)");
    if (j.contains("init_lora_weights") && j["init_lora_weights"].is_string()) {
        // "gaussian" only chose A's start; loftq, pissa, olora, corda and the like changed
        // the base weights the adapter was trained against.
        const std::string init = j["init_lora_weights"].get<std::string>();
        if (init != "gaussian")
            fail("init_lora_weights: \"" + init + "\" changes the base weights the adapter belongs to; save the "
                 "adapter converted to plain LoRA (PEFT's path_initial_model_for_weight_conversion) instead");
    }
    LoraOptions o;
    if (!need("r").is_number_integer() || need("r").get<int>() <= 0)
        fail("r: must be an integer > 0");
    o.rank = need("r").get<int>();
    if (!need("lora_alpha").is_number())
        fail("lora_alpha: must be a number");
    o.alpha = need("lora_alpha").get<double>();
    o.dropout = j.contains("lora_dropout") && j["lora_dropout"].is_number() ? j["lora_dropout"].get<double>() : 0.0;
    if (j.contains("use_rslora") && !j["use_rslora"].is_null()) {
        if (!j["use_rslora"].is_boolean())
            fail("use_rslora: must be true or false");
        o.rslora = j["use_rslora"].get<bool>();
    }
    const nlohmann::json &targets = need("target_modules");
    o.targetModules.clear();
    if (targets.is_string()) {
        // PEFT: a string is a regex the whole module name must match ("all-linear" is a word).
        o.targetRegex = targets.get<std::string>();
        if (o.targetRegex == "all-linear")
            o.targetRegex = ".*";
        checkRegex(o.targetRegex, configPath, "target_modules");
    } else if (targets.is_array()) {
        for (const auto &t : targets) {
            if (!t.is_string())
                fail("target_modules: must be a list of module names or a regex");
            o.targetModules.push_back(t.get<std::string>());
        }
    } else {
        fail("target_modules: must be a list of module names or a regex");
    }
    for (const char *key : {"rank_pattern", "alpha_pattern"}) {
        if (!j.contains(key) || j[key].is_null())
            continue;
        if (!j[key].is_object())
            fail(std::string(key) + ": must be an object of module patterns");
        for (const auto &[pattern, value] : j[key].items()) {
            checkRegex("(.*\\.)?(" + pattern + ")", configPath, std::string(key) + "." + pattern);
            if (std::string(key) == "rank_pattern") {
                if (!value.is_number_integer() || value.get<int>() <= 0)
                    fail("rank_pattern." + pattern + ": must be an integer > 0");
                o.rankPattern.emplace_back(pattern, value.get<int>());
            } else {
                if (!value.is_number())
                    fail("alpha_pattern." + pattern + ": must be a number");
                o.alphaPattern.emplace_back(pattern, value.get<double>());
            }
        }
    }
    try {
        addLora(o);
    } catch (const std::invalid_argument &e) {
        fail(std::string("target_modules: ") + e.what());
    }
    const std::string weightsPath = (fs::path(folder) / "adapter_model.safetensors").string();
    const SafetensorsFile file = SafetensorsFile::open(weightsPath);
    std::set<std::string> used;
    for (auto &[name, tensor] : m_d->loraTensors()) {
        const TensorView *view = file.find(name);
        if (!view)
            throw data::InputException({weightsPath, 0, "tensor " + name + " missing (target_modules lists it)"});
        copyStoredTensor(tensor, *view, weightsPath);
        used.insert(name);
    }
    // A tensor the config did not account for (a DoRA magnitude, a saved module, an
    // embedding's adapter) would be dropped without a word: refuse it by name.
    for (const TensorView &view : file.tensors())
        if (!used.count(std::string(view.name)))
            throw data::InputException({weightsPath, 0, "tensor " + std::string(view.name) + " is not one this engine applies (only "
                                                        "lora_A / lora_B of the config's target modules): loading the "
                                                        "adapter without it would compute something else than PEFT"});
}

} // namespace rwb::model
