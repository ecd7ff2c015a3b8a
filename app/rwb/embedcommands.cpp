// rwb embed (texts → unit vectors with an embedding backend) and rwb bench embed (its
// speed, and the semantic reward's cost per pair).

#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "embed/embedderfactory.h"
#include "embed/lexicalembedder.h"
#include "data/syntheticlaw.h"
#include "retrieval/corpus.h"

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
                   OpenAI-compatible /v1/embeddings; docs/embeddings-http.md)
  --input F        JSONL, one text per line in --field (default "text"); a line whose
                   field is missing or not a string is an error naming file:line
  --role R         document (default) or query: asymmetric models embed them differently
  --corpus C       lexical: the passages JSONL its idf is fitted on (default: the input texts)
  --options JSON   the backend's options (http: model, api_key_env, batch, …)
  --out F          where to write (default: standard output), through F.part

One line per input line: {"line", "embedding": [floats]} with L2 norm 1 (0 for a text
with nothing to embed). Lexical vectors have 65,536 dimensions, mostly 0.
)";

const char *const kBenchEmbedHelp = R"(rwb bench embed — embedding throughput, and what the semantic reward costs

Usage: rwb bench embed [--model SPEC] [--input texts.jsonl] [--field text] [--corpus C.jsonl]
                       [--options JSON] [--seconds S]

Without --input: 512 synthetic legal-QA reference answers (rwb data synth --task legal_qa,
seed 1). Measures, on one thread: texts/s of embed() over all texts; and for the
semantic reward, the microseconds per (answer, reference) pair — lexical through its
exact sparse path, other backends through embed() of both texts — and the time of the
128 pairs a GRPO step of 16 prompts × G 8 scores. Prints one JSON object.
Where a GRPO step's time goes, semantic reward included: rwb bench grpo-step --config
with a legal-QA reward config (docs/results.md).
)";

std::vector<std::string> readTexts(const std::string &path, const std::string &field)
{
    std::vector<std::string> out;
    data::forEachLine(data::readTextFile(path), [&](size_t lineNo, std::string_view line) {
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(line);
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

int embedBench(const std::vector<std::string> &argv)
{
    using Clock = std::chrono::steady_clock;
    const Args args(argv, {{"model", "input", "field", "corpus", "options", "seconds"}, {"help"}});
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
    const auto embedder = makeFromArgs(args, texts);
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
    const auto *lex = dynamic_cast<const embed::LexicalEmbedder *>(embedder.get());
    size_t pairs = 0;
    double checksum = 0.0;
    t0 = Clock::now();
    do {
        for (size_t i = 0; i < texts.size(); ++i, ++pairs) {
            const std::string &a = texts[i], &b = texts[(i + 1) % texts.size()];
            if (lex) {
                checksum += lex->similarity(a, b);
            } else {
                const auto v = embedder->embed({a, b}, embed::EmbedRole::Document);
                checksum += embed::cosine(v[0], v[1]);
            }
        }
    } while (since(t0) < seconds);
    const double usPerPair = since(t0) / static_cast<double>(pairs) * 1e6;
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
    j["threads"] = 1;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

} // namespace rwb::cli
