// rwb embed (texts → unit vectors with an embedding backend) and rwb bench embed (its
// speed, and the semantic reward's cost per pair).

#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "embed/embedderfactory.h"
#include "embed/hfembedder.h"
#include "embed/lexicalembedder.h"
#include "tasks/legalqa/syntheticlaw.h"
#include "model/initencoder.h"
#include "retrieval/corpus.h"
#include "util/boundedjson.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace rwb::cli {

namespace {

const char *const kEmbedHelp = R"(rwb embed — unit vectors of texts from an embedding backend

Usage: rwb embed --model SPEC --input texts.jsonl [--field text] [--role query|document]
                 [--corpus passages.jsonl] [--options JSON] [--out vectors.jsonl]

  --model SPEC     lexical (model-free character n-gram TF-IDF), http:URL (an
                   OpenAI-compatible /v1/embeddings; docs/embeddings-http.md), hf:DIR (a
                   Hugging Face encoder folder run here: BERT, XLM-R, Qwen3-Embedding;
                   docs/retrieval.md#hugging-face-encoders)
  --input F        JSONL, one text per line in --field (default "text"); a line whose
                   field is missing or not a string is an error naming file:line
  --role R         document (default) or query: asymmetric models embed them differently
  --corpus C       lexical: the passages JSONL its idf is fitted on (default: the input texts)
  --options JSON   the backend's options (http: model, api_key_env, batch, …; hf: batch,
                   max_length, pooling, query_prefix, document_prefix, threads)
  --out F          where to write (default: standard output), through F.part

One line per input line: {"line", "embedding": [floats]} with L2 norm 1 (0 for a text
with nothing to embed). Lexical vectors have 65,536 dimensions, mostly 0.
)";

const char *const kBenchEmbedHelp = R"(rwb bench embed — embedding throughput, and what the semantic reward costs

Usage: rwb bench embed [--model SPEC] [--input texts.jsonl] [--field text] [--corpus C.jsonl]
                       [--options JSON] [--seconds S] [--threads N] [--answers N]
                       [--step-seconds S]

Without --input: 512 synthetic legal-QA reference answers (rwb data synth --task legal_qa,
seed 1). Measures: texts/s of embed() over all texts; for the semantic reward, the
microseconds per (answer, reference) pair — lexical through its exact sparse path, other
backends through embed() of both texts — and the time of the 128 pairs a GRPO step of
16 prompts × G 8 scores; and the reward's time for one step as SemanticReward scores
it (lexical: --answers sparse pairs; other backends: one embed() of --answers answers
and one of their --answers/8 references) and its share of a step of --step-seconds.
Prints one JSON object.

  --model hf:      (no folder) a random-weight encoder of all-MiniLM-L6-v2's shape (6
                   layers, hidden 384, 12 heads, FFN 1536, mean pooling) written to a
                   temporary folder, with a WordPiece vocabulary of the texts' characters
                   (about one token per character) instead of MiniLM's 30,522 entries
  --threads N      libtorch threads for hf: (default 1; lexical always runs on one)
  --answers N      completions a GRPO step scores (default 64: 8 prompts × G 8)
  --step-seconds S the step the share is of (default 1.64: the legal-QA step of the tiny
                   model, 8 prompts × G 8, measured with rwb bench grpo-step in
                   docs/results.md)
Where a GRPO step's time goes, semantic reward included: rwb bench grpo-step --config
with a legal-QA reward config (docs/results.md).
)";

std::vector<std::string> readTexts(const std::string &path, const std::string &field)
{
    std::vector<std::string> out;
    data::forEachLine(data::readTextFile(path), [&](size_t lineNo, std::string_view line) {
        nlohmann::json j;
        try {
            j = util::parseJson(line);
        } catch (const nlohmann::json::parse_error &) {
            throw data::InputException({path, lineNo, "not valid JSON"});
        }
        if (!j.is_object() || !j.contains(field) || !j[field].is_string())
            throw data::InputException({path, lineNo, "field \"" + field + "\" missing or not a string"});
        out.push_back(j[field].get<std::string>());
        return true;
    });
    if (out.empty())
        throw data::InputException({path, 0, "no text"});
    return out;
}

std::unique_ptr<embed::Embedder> makeFromArgs(const Args &args, const std::vector<std::string> &texts)
{
    embed::EmbedderContext ctx;
    ctx.options = args.value("options");
    ctx.source = "--model";
    if (args.has("corpus")) {
        const retrieval::Corpus corpus = retrieval::Corpus::readJsonl(args.value("corpus"));
        for (const retrieval::Passage &p : corpus.passages())
            ctx.corpusTexts.push_back(retrieval::Corpus::embeddingText(p));
    } else {
        ctx.corpusTexts = texts;
    }
    try {
        return embed::makeEmbedder(args.value("model", "lexical"), ctx);
    } catch (const std::invalid_argument &e) {
        throw UsageError{e.what()};
    }
}

int embedRun(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "input", "field", "role", "corpus", "options", "out"}, {"help"}});
    if (args.has("help")) {
        std::cout << kEmbedHelp;
        return kExitOk;
    }
    const std::string role = args.value("role", "document");
    if (role != "document" && role != "query")
        throw UsageError{"--role must be query or document"};
    const std::vector<std::string> texts = readTexts(args.required("input"), args.value("field", "text"));
    const auto embedder = makeFromArgs(args, texts);
    const auto vectors =
        embedder->embed(texts, role == "query" ? embed::EmbedRole::Query : embed::EmbedRole::Document);
    writeOutput(args.value("out"), [&](std::ostream &os) {
        for (size_t i = 0; i < vectors.size(); ++i)
            os << nlohmann::json{{"line", i + 1}, {"embedding", vectors[i]}}.dump() << '\n';
    });
    return kExitOk;
}

} // namespace

int embedCommand(const std::vector<std::string> &args)
{
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cout << kEmbedHelp;
        return args.empty() ? kExitBadInput : kExitOk;
    }
    return guarded("embed", [&] { return embedRun(args); });
}

namespace {

// A temporary folder removed when the bench ends (also when it throws).
struct TemporaryFolder {
    std::filesystem::path path;
    ~TemporaryFolder()
    {
        std::error_code ec;
        if (!path.empty())
            std::filesystem::remove_all(path, ec);
    }
};

} // namespace

int embedBench(const std::vector<std::string> &argv)
{
    using Clock = std::chrono::steady_clock;
    const Args args(argv, {{"model", "input", "field", "corpus", "options", "seconds", "threads", "answers",
                            "step-seconds"},
                           {"help"}});
    if (args.has("help")) {
        std::cout << kBenchEmbedHelp;
        return kExitOk;
    }
    std::vector<std::string> texts;
    if (args.has("input")) {
        texts = readTexts(args.value("input"), args.value("field", "text"));
    } else {
        const data::SyntheticLawGenerator generator(data::LegalSynthOptions{});
        for (const data::LegalQuestion &q : generator.questions(data::DataSplit::Train, 512))
            texts.push_back(q.referenceAnswer);
    }
    const double threadsArg = args.number("threads", 1.0);
    const double answersArg = args.number("answers", 64.0);
    const double stepSeconds = args.number("step-seconds", 1.64);
    if (threadsArg < 1 || threadsArg != static_cast<int>(threadsArg))
        throw UsageError{"--threads must be a whole number of at least 1"};
    if (answersArg < 1 || answersArg != static_cast<int>(answersArg))
        throw UsageError{"--answers must be a whole number of at least 1"};
    if (!(stepSeconds > 0.0))
        throw UsageError{"--step-seconds must be a positive number of seconds"};
    const int threads = static_cast<int>(threadsArg);
    const size_t answers = static_cast<size_t>(answersArg);

    // hf: without a folder: a random MiniLM-L6-shaped encoder, written for this run.
    std::vector<std::string> argvForModel = argv;
    TemporaryFolder benchFolder;
    nlohmann::ordered_json randomModel;
    const std::string spec = args.value("model", "lexical");
    if (spec.rfind("hf:", 0) == 0) {
        if (spec == "hf:") {
            benchFolder.path = std::filesystem::temp_directory_path() /
                               ("rwb-bench-minilm-" + std::to_string(static_cast<long>(::getpid())));
            model::RandomEncoderOptions o;
            o.vocabulary = model::characterVocabulary(texts);
            o.seed = 1;
            const model::RandomEncoderFolder made = model::writeRandomEncoderFolder(o, benchFolder.path.string());
            randomModel["shape"] = "all-MiniLM-L6-v2 (6 layers, hidden 384, 12 heads, FFN 1536, mean pooling)";
            randomModel["vocab_size"] = made.vocabSize;
            randomModel["parameters"] = made.parameters;
            randomModel["weights"] = "random";
        }
        // libtorch threads through the options, unless they say otherwise.
        nlohmann::json options = nlohmann::json::object();
        if (args.has("options")) {
            options = util::parseJsonOrDiscarded(args.value("options"));
            if (options.is_discarded() || !options.is_object())
                throw UsageError{"--options must be a JSON object"};
        }
        if (!options.contains("threads"))
            options["threads"] = threads;
        argvForModel.clear();
        for (size_t i = 0; i < argv.size(); ++i) {
            if (argv[i] == "--model" || argv[i] == "--options") {
                ++i;
                continue;
            }
            argvForModel.push_back(argv[i]);
        }
        argvForModel.insert(argvForModel.end(),
                            {"--model", benchFolder.path.empty() ? spec : "hf:" + benchFolder.path.string(), "--options",
                             options.dump()});
    }
    const Args modelArgs(argvForModel, {{"model", "input", "field", "corpus", "options", "seconds", "threads",
                                         "answers", "step-seconds"},
                                        {"help"}});
    const auto embedder = makeFromArgs(modelArgs, texts);
    const bool neural = embedder->model().has_value();
    const double seconds = std::max(0.2, args.number("seconds", 2.0));
    auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };

    // embed() throughput
    size_t embedded = 0;
    auto t0 = Clock::now();
    do {
        embedded += embedder->embed(texts, embed::EmbedRole::Document).size();
    } while (since(t0) < seconds);
    const double textsPerSecond = static_cast<double>(embedded) / since(t0);

    // the semantic reward's pairs: text i against text (i + 1) mod n
    const bool pairwise = embedder->pairwise();
    size_t pairs = 0;
    double checksum = 0.0;
    t0 = Clock::now();
    do {
        for (size_t i = 0; i < texts.size(); ++i, ++pairs) {
            const std::string &a = texts[i], &b = texts[(i + 1) % texts.size()];
            checksum += embedder->similarity(a, b);
            if (!pairwise && since(t0) >= seconds) { // a model is slow: stop within the time asked for
                ++pairs;
                break;
            }
        }
    } while (since(t0) < seconds);
    const double usPerPair = since(t0) / static_cast<double>(pairs) * 1e6;

    // One GRPO step's semantic reward as SemanticReward::scoreBatch computes it: lexical
    // pair by pair on its sparse path; other backends one embed() of the answers and one
    // of the distinct references (a group's G = 8 answers share one).
    std::vector<std::string> stepAnswers, stepReferences;
    for (size_t i = 0; i < answers; ++i)
        stepAnswers.push_back(texts[i % texts.size()]);
    for (size_t i = 0; i < (answers + 7) / 8; ++i)
        stepReferences.push_back(texts[(answers + i) % texts.size()]);
    size_t steps = 0;
    double stepChecksum = 0.0;
    t0 = Clock::now();
    do {
        if (pairwise) {
            for (size_t i = 0; i < stepAnswers.size(); ++i)
                stepChecksum += embedder->similarity(stepAnswers[i], stepReferences[i / 8]);
        } else {
            const auto a = embedder->embed(stepAnswers, embed::EmbedRole::Document);
            const auto r = embedder->embed(stepReferences, embed::EmbedRole::Document);
            for (size_t i = 0; i < a.size(); ++i)
                stepChecksum += embed::cosine(a[i], r[i / 8]);
        }
        ++steps;
    } while (since(t0) < seconds);
    const double msPerStep = since(t0) / static_cast<double>(steps) * 1e3;
    size_t chars = 0;
    for (const std::string &t : texts)
        chars += t.size();

    nlohmann::ordered_json j;
    j["model"] = embedder->name();
    j["texts"] = texts.size();
    j["mean_bytes_per_text"] = static_cast<double>(chars) / static_cast<double>(texts.size());
    j["dimension"] = embedder->dimension();
    j["texts_per_second"] = textsPerSecond;
    j["microseconds_per_pair"] = usPerPair;
    j["milliseconds_per_128_pairs"] = usPerPair * 128.0 / 1000.0;
    j["mean_similarity"] = checksum / static_cast<double>(pairs);
    j["step_answers"] = answers;
    j["step_references"] = stepReferences.size();
    j["milliseconds_per_step"] = msPerStep;
    j["step_seconds"] = stepSeconds;
    j["share_of_step"] = msPerStep / (stepSeconds * 1e3);
    j["mean_step_similarity"] = stepChecksum / static_cast<double>(steps * answers);
    j["threads"] = neural ? threads : 1;
    if (const std::optional<embed::Embedder::ModelInfo> m = embedder->model()) {
        j["model_type"] = m->type;
        j["pooling"] = m->pooling;
        j["max_length"] = m->maxLength;
        size_t tokens = 0;
        for (const std::string &t : texts)
            tokens += static_cast<size_t>(std::max<int64_t>(0, embedder->tokenCount(t, embed::EmbedRole::Document)));
        j["mean_tokens_per_text"] = static_cast<double>(tokens) / static_cast<double>(texts.size());
    }
    if (!randomModel.empty())
        j["random_model"] = randomModel;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace rwb::cli
