// Loading and saving models and LoRA adapters (CausalLM::load / save / saveAdapter /
// loadAdapter): Hugging Face and PEFT layouts through the safetensors reader.
#include "model/causallm.h"
#include "model/causallminternals.h"
#include "model/precision.h"
#include "model/safetensors.h"

#include "data/jsonl.h"

#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
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

DType storedDtype(torch::Dtype d)
{
    return d == torch::kBFloat16 ? DType::BF16 : DType::F32;
}

void writeText(const fs::path &path, const std::string &text)
{
    const fs::path tmp = path.string() + ".part";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out)
            throw std::runtime_error(path.string() + ": cannot write");
    }
    fs::rename(tmp, path);
}

// Contiguous CPU copies kept alive while writing.
std::vector<TensorToWrite> toWrite(const std::vector<std::pair<std::string, torch::Tensor>> &named,
                                   std::vector<torch::Tensor> &keep)
{
    std::vector<TensorToWrite> out;
    for (const auto &[name, t] : named) {
        keep.push_back(t.detach().to(torch::kCPU).contiguous());
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
    param.copy_(stored.to(torch::kFloat32).to(param.scalar_type()));
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
    nlohmann::ordered_json j;
    j["peft_type"] = "LORA";
    j["task_type"] = "CAUSAL_LM";
    j["r"] = m_d->lora.rank;
    j["lora_alpha"] = m_d->lora.alpha;
    j["lora_dropout"] = m_d->lora.dropout;
    j["target_modules"] = m_d->lora.targetModules;
    j["bias"] = "none";
    j["fan_in_fan_out"] = false;
    j["inference_mode"] = true;
    writeText(fs::path(folder) / "adapter_config.json", j.dump(2) + "\n");
}

void CausalLM::loadAdapter(const std::string &folder)
{
    const std::string configPath = (fs::path(folder) / "adapter_config.json").string();
    nlohmann::json j;
    try {
        j = nlohmann::json::parse(data::readTextFile(configPath));
    } catch (const nlohmann::json::exception &e) {
        throw data::InputException({configPath, 0, std::string("not valid JSON: ") + e.what()});
    }
    auto need = [&](const char *key) -> const nlohmann::json & {
        auto it = j.find(key);
        if (it == j.end())
            throw data::InputException({configPath, 0, std::string(key) + ": missing"});
        return *it;
    };
    if (j.value("peft_type", std::string("LORA")) != "LORA")
        throw data::InputException({configPath, 0, "peft_type: only LORA adapters are supported"});
    LoraOptions o;
    if (!need("r").is_number_integer() || need("r").get<int>() <= 0)
        throw data::InputException({configPath, 0, "r: must be an integer > 0"});
    o.rank = need("r").get<int>();
    if (!need("lora_alpha").is_number())
        throw data::InputException({configPath, 0, "lora_alpha: must be a number"});
    o.alpha = need("lora_alpha").get<double>();
    o.dropout = j.value("lora_dropout", 0.0);
    const nlohmann::json &targets = need("target_modules");
    if (!targets.is_array())
        throw data::InputException({configPath, 0, "target_modules: must be a list of module names"});
    o.targetModules.clear();
    for (const auto &t : targets)
        o.targetModules.push_back(t.get<std::string>());
    addLora(o);
    const std::string weightsPath = (fs::path(folder) / "adapter_model.safetensors").string();
    const SafetensorsFile file = SafetensorsFile::open(weightsPath);
    for (auto &[name, tensor] : m_d->loraTensors()) {
        const TensorView *view = file.find(name);
        if (!view)
            throw data::InputException({weightsPath, 0, "tensor " + name + " missing (target_modules lists it)"});
        copyStoredTensor(tensor, *view, weightsPath);
    }
}

} // namespace rwb::model
