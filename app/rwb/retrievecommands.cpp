#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "embed/lexicalembedder.h"
#include "retrieval/bm25index.h"
#include "retrieval/corpus.h"
#include "retrieval/denseretriever.h"
#include "retrieval/hybridretriever.h"
#include "retrieval/retrievalmetrics.h"
#include "util/boundedjson.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>
#include <sstream>

namespace rwb::cli {

namespace {

using retrieval::Bm25Index;
using retrieval::DenseRetriever;

const char *const kRetrieveHelp = R"(rwb retrieve — passage retrieval (BM25, dense, hybrid)

Subcommands:
  index     build a retrieval index (SQLite) from a passages JSONL file
  query     the top passages for one question
  annotate  add the retrieved passages to every line of a questions JSONL file
  eval      recall@k, hit@k and MRR against gold passage ids
Run "rwb retrieve <subcommand> --help" for its options. See docs/retrieval.md.
)";

const char *const kIndexHelp = R"(rwb retrieve index — build a retrieval index

Usage: rwb retrieve index --corpus passages.jsonl --out index.sqlite
                          [--tokenizer trigram|bigram] [--dense lexical]

  --corpus F.jsonl    one passage per line: {"id", "text", "title"?, "meta"?}; id a
                      string or an integer, unique; other fields are kept in meta
  --out F.sqlite      the index; written to F.sqlite.part and renamed when complete, so
                      an existing index is replaced only by a finished one
  --tokenizer T       bigram (default): character bigrams of letters and digits, queries
                      of 2 characters or more; trigram: FTS5's trigram tokenizer, any
                      script, queries of 3 characters or more. On the legal-QA corpus
                      bigram finds more (BM25 recall@5 0.990 against 0.947 on its test
                      questions; docs/results.md)
  --dense E           also store passage vectors from embedder E, for --mode dense and
                      hybrid: lexical (character 1–3-gram TF-IDF fitted on this corpus)

Text is compared after NFKC normalization with white space removed and A–Z lower-cased.
Prints {"out", "passages", "tokenizer", "dense", "seconds"}.
)";

const char *const kQueryHelp = R"(rwb retrieve query — the top passages for one question

Usage: rwb retrieve query --index index.sqlite [--k 5] [--mode bm25|dense|hybrid]
                          [--weights 0.5,0.5] [--dense NAME] [--title-weight 1]
                          [--json] "question"

  --index F.sqlite    an index from `rwb retrieve index`
  --k K               how many passages (default 5)
  --mode M            bm25 (default); dense (needs an index built with --dense);
                      hybrid: BM25 and dense scores, each min-max normalized over its
                      own top max(K, 50), summed with --weights
  --weights W1,W2     hybrid weights of BM25 and dense (default 0.5,0.5)
  --dense NAME        which stored embedder, when the index holds several
  --title-weight W    weight of a title occurrence against one in the text (default 1)
  --json              one JSON object per passage: {"rank", "id", "score", "title", "text"}

Prints one line per passage, tab-separated: rank, id, score, title. BM25 scores are
FTS5's (k1 1.2, b 0.75; larger is better), dense scores cosines, hybrid scores fused.
)";

const char *const kAnnotateHelp = R"(rwb retrieve annotate — add retrieved passages to a questions file

Usage: rwb retrieve annotate --index index.sqlite --input Q.jsonl --query-field question
                             --k K --out OUT.jsonl [--mode bm25|dense|hybrid]
                             [--weights 0.5,0.5] [--dense NAME] [--title-weight 1]
                             [--chain]

Copies every line of Q.jsonl to OUT.jsonl in order, each with a field
  "retrieved": [{"id", "title", "text", "score"}, …]   (best first, at most K)
added (replacing one already there); every other field is kept. Blank lines are
dropped. A line that is not a JSON object, or whose query field is missing or not a
string, stops the command with "file:line: field …". Written to OUT.jsonl.part first
and renamed when complete. Options as for `rwb retrieve query`.

  --chain   also give every step of the line's "chain" (multi-hop questions) its own
            "retrieved", searched by the step's "subquery": the frozen retrievals of
            the gold trajectory that format-aware SFT trains on. A line without a
            chain, or a step without a string "subquery", stops the command.
)";

const char *const kEvalHelp = R"(rwb retrieve eval — retrieval quality against gold passage ids

Usage: rwb retrieve eval --index index.sqlite --input Q.jsonl --query-field question
                         --gold-field law_codes [--k 1,5,10] [--mode bm25,dense,hybrid]
                         [--weights 0.5,0.5] [--dense NAME] [--title-weight 1]

  --gold-field F   the passage ids that answer a question: a string, an integer or a
                   list of them; a line with none (null, []) is skipped
  --k K1,K2,…      cut-offs (default 1,5,10)
  --mode M1,M2,…   modes to evaluate (default: bm25, plus dense and hybrid when the
                   index holds vectors)

Prints one JSON object:
  {"queries", "skipped", "unknown_gold_ids", "k",
   "modes": {"bm25": {"recall@1", "hit@1", …, "mrr"}, …}}
  recall@k  share of a question's gold ids in the top k (2 of 3 gold → 0.667), averaged
  hit@k     share of questions with at least one gold id in the top k
  mrr       mean of 1 / rank of the first gold id in the top max(k) (0 when none)
unknown_gold_ids counts gold ids that are no passage of the index (check --gold-field).
)";

// A whole number in [1, max] from an option value; UsageError otherwise.
int parsePositive(const std::string &option, const std::string &value, int max)
{
    if (value.empty() || value.size() > 9 || value.find_first_not_of("0123456789") != std::string::npos ||
        std::stoi(value) < 1 || std::stoi(value) > max)
        throw UsageError{"--" + option + " must be a whole number from 1 to " + std::to_string(max) + ", not \"" +
                         value + "\""};
    return std::stoi(value);
}

std::vector<std::string> splitCommas(const std::string &value)
{
    std::vector<std::string> parts;
    std::stringstream ss(value);
    std::string part;
    while (std::getline(ss, part, ','))
        parts.push_back(part);
    return parts;
}

// Most hits one question may ask for.
constexpr int kMaxK = 10000;

// The words of argv that are not options or option values (the question of `query`),
// and argv without them, for Args.
std::pair<std::vector<std::string>, std::vector<std::string>> splitPositional(const std::vector<std::string> &argv,
                                                                            const Args::Spec &spec)
{
    std::vector<std::string> options, words;
    for (size_t i = 0; i < argv.size(); ++i) {
        const std::string &a = argv[i];
        if (a.rfind("--", 0) != 0) {
            words.push_back(a);
            continue;
        }
        options.push_back(a);
        const std::string name = a.substr(2);
        const bool valued = std::find(spec.valued.begin(), spec.valued.end(), name) != spec.valued.end();
        if (valued && i + 1 < argv.size())
            options.push_back(argv[++i]);
    }
    return {options, words};
}

// A dense backend fitted for a new index. "lexical" is fitted on the corpus; neural
// backends ("hf:…", "http:…") will be constructed here from their spec.
std::shared_ptr<const embed::Embedder> newEmbedder(const std::string &spec, const retrieval::Corpus &corpus)
{
    if (spec == "lexical") {
        std::vector<std::string> texts;
        texts.reserve(corpus.size());
        for (const retrieval::Passage &p : corpus.passages())
            texts.push_back(retrieval::Corpus::embeddingText(p));
        return std::make_shared<embed::LexicalEmbedder>(texts);
    }
    throw UsageError{"unknown dense embedder \"" + spec + "\" (available: lexical)"};
}

// The embedder that produced vectors stored in an index, rebuilt to embed queries.
std::shared_ptr<const embed::Embedder> storedEmbedder(const DenseRetriever::StoredEmbedder &stored,
                                                      const std::string &indexPath)
{
    if (stored.name == "lexical")
        return std::make_shared<embed::LexicalEmbedder>(
            embed::LexicalEmbedder::fromState(stored.state, indexPath + " (embedder lexical)"));
    throw data::InputException({indexPath, 0, "its vectors come from embedder \"" + stored.name +
                                                  "\", which this build of rwb cannot run"});
}

// An open index and the retrievers built on it.
struct OpenIndex {
    std::shared_ptr<Bm25Index> bm25;
    std::shared_ptr<DenseRetriever> dense; // null when the index holds no vectors or none were asked for
    std::vector<double> weights;           // hybrid: BM25, dense

    std::shared_ptr<const retrieval::Retriever> forMode(const std::string &mode, const std::string &path) const
    {
        if (mode == "bm25")
            return bm25;
        if (mode != "dense" && mode != "hybrid")
            throw UsageError{"unknown mode \"" + mode + "\" (allowed: bm25, dense, hybrid)"};
        if (!dense)
            throw data::InputException({path, 0, "holds no passage vectors; build it with --dense lexical for --mode " + mode});
        if (mode == "dense")
            return dense;
        return std::make_shared<retrieval::HybridRetriever>(
            std::vector<retrieval::HybridRetriever::Component>{{bm25, weights[0]}, {dense, weights[1]}});
    }
};

// Opens --index; loads dense vectors when `withDense` (and the index has them).
OpenIndex openIndex(const Args &args, bool withDense)
{
    const std::string path = args.required("index");
    OpenIndex index;
    index.bm25 = std::make_shared<Bm25Index>(path);
    const double titleWeight = args.number("title-weight", 1.0);
    if (!(titleWeight >= 0.0) || !std::isfinite(titleWeight))
        throw UsageError{"--title-weight must be a number >= 0"};
    index.bm25->setTitleWeight(titleWeight);

    const std::vector<std::string> w = splitCommas(args.value("weights", "0.5,0.5"));
    if (w.size() != 2)
        throw UsageError{"--weights takes two numbers, BM25 and dense: \"0.5,0.5\""};
    for (const std::string &x : w) {
        char *end = nullptr;
        const double d = std::strtod(x.c_str(), &end);
        if (x.empty() || *end != '\0' || !(d >= 0.0) || !std::isfinite(d))
            throw UsageError{"--weights must be numbers >= 0, not \"" + x + "\""};
        index.weights.push_back(d);
    }

    if (!withDense)
        return index;
    const std::vector<DenseRetriever::StoredEmbedder> stored = DenseRetriever::stored(path);
    const std::string wanted = args.value("dense");
    const DenseRetriever::StoredEmbedder *pick = nullptr;
    std::string names;
    for (const DenseRetriever::StoredEmbedder &s : stored) {
        names += (names.empty() ? "" : ", ") + s.name;
        if (s.name == wanted || (wanted.empty() && stored.size() == 1))
            pick = &s;
    }
    if (!wanted.empty() && !pick)
        throw UsageError{"the index holds no vectors of \"" + wanted + "\" (it has: " + (names.empty() ? "none" : names) + ")"};
    if (!pick && stored.size() > 1)
        throw UsageError{"the index holds vectors of several embedders (" + names + "): choose one with --dense"};
    if (pick)
        index.dense = DenseRetriever::load(path, storedEmbedder(*pick, path));
    return index;
}

int buildIndex(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"corpus", "out", "tokenizer", "dense"}, {"help"}});
    if (args.has("help")) {
        std::cout << kIndexHelp;
        return kExitOk;
    }
    const auto started = std::chrono::steady_clock::now();
    const std::string corpusPath = args.required("corpus");
    const std::string out = args.required("out");
    const std::string tokenizerName = args.value("tokenizer", "bigram");
    const std::optional<Bm25Index::Tokenizer> tokenizer = Bm25Index::parseTokenizer(tokenizerName);
    if (!tokenizer)
        throw UsageError{"unknown tokenizer \"" + tokenizerName + "\" (allowed: trigram, bigram)"};
    const std::string denseSpec = args.value("dense");

    const retrieval::Corpus corpus = retrieval::Corpus::readJsonl(corpusPath);
    std::shared_ptr<const embed::Embedder> embedder;
    if (!denseSpec.empty())
        embedder = newEmbedder(denseSpec, corpus);

    const bool terminal = stderrIsTerminal();
    auto report = [terminal](const char *what) {
        return [terminal, what](size_t done, size_t total) {
            if (terminal)
                std::cerr << "\r" << what << " " << done << "/" << total << std::flush;
            return true;
        };
    };
    Bm25Index::BuildOptions options;
    options.tokenizer = *tokenizer;
    options.progress = report("indexed");
    if (embedder)
        options.extend = [&](const std::string &part) {
            if (terminal)
                std::cerr << "\n";
            const std::unique_ptr<DenseRetriever> dense = DenseRetriever::build(embedder, corpus, report("embedded"));
            dense->save(part, embedder->state());
        };
    Bm25Index::build(corpus, out, options);
    if (terminal)
        std::cerr << "\n";

    nlohmann::ordered_json j;
    j["out"] = out;
    j["passages"] = corpus.size();
    j["tokenizer"] = tokenizerName;
    j["dense"] = embedder ? nlohmann::ordered_json(embedder->name()) : nlohmann::ordered_json(nullptr);
    j["seconds"] =
        std::round(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() * 100.0) / 100.0;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int query(const std::vector<std::string> &argv)
{
    const Args::Spec spec{{"index", "k", "mode", "weights", "dense", "title-weight"}, {"json", "help"}};
    const auto [options, words] = splitPositional(argv, spec);
    const Args args(options, spec);
    if (args.has("help")) {
        std::cout << kQueryHelp;
        return kExitOk;
    }
    if (words.empty())
        throw UsageError{"the question is missing (put it last, in quotes)"};
    if (words.size() > 1)
        throw UsageError{"one question only: put it in quotes (got " + std::to_string(words.size()) + " words)"};
    const int k = parsePositive("k", args.value("k", "5"), kMaxK);
    const std::string mode = args.value("mode", "bm25");
    const OpenIndex index = openIndex(args, mode != "bm25");
    const std::shared_ptr<const retrieval::Retriever> retriever = index.forMode(mode, args.required("index"));
    const retrieval::Corpus passages = index.bm25->passages();
    for (const retrieval::Hit &h : retriever->search(words[0], k)) {
        const retrieval::Passage *p = passages.find(h.id);
        if (args.has("json")) {
            nlohmann::ordered_json j;
            j["rank"] = h.rank;
            j["id"] = h.id;
            j["score"] = h.score;
            j["title"] = p ? p->title : "";
            j["text"] = p ? p->text : "";
            std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
        } else {
            std::cout << h.rank << "\t" << h.id << "\t" << std::fixed << std::setprecision(6) << h.score << "\t"
                      << (p ? p->title : "") << "\n";
        }
    }
    std::cout << std::flush;
    return kExitOk;
}

// Reads the questions file: one JSON object per line, with `field` a string.
struct QuestionLine {
    size_t line = 0;
    nlohmann::ordered_json json;
    std::string question;
};

std::vector<QuestionLine> readQuestions(const std::string &path, const std::string &field)
{
    std::vector<QuestionLine> lines;
    data::forEachLine(data::readTextFile(path), [&](size_t lineNo, std::string_view text) {
        QuestionLine q;
        q.line = lineNo;
        try {
            q.json = util::parseJson<nlohmann::ordered_json>(text);
        } catch (const nlohmann::json::parse_error &e) {
            throw data::InputException({path, lineNo, std::string("invalid JSON: ") + e.what()});
        }
        if (!q.json.is_object())
            throw data::InputException({path, lineNo, "expected a JSON object"});
        const auto it = q.json.find(field);
        if (it == q.json.end())
            throw data::InputException({path, lineNo, "field \"" + field + "\": missing"});
        if (!it->is_string())
            throw data::InputException(
                {path, lineNo, "field \"" + field + "\": must be a string, not " + std::string(it->type_name())});
        q.question = it->get<std::string>();
        lines.push_back(std::move(q));
        return true;
    });
    return lines;
}

int annotate(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"index", "input", "query-field", "k", "out", "mode", "weights", "dense", "title-weight"},
                           {"help", "chain"}});
    if (args.has("help")) {
        std::cout << kAnnotateHelp;
        return kExitOk;
    }
    const std::string inputPath = args.required("input");
    const std::string field = args.required("query-field");
    const int k = parsePositive("k", args.required("k"), kMaxK);
    const std::string out = args.required("out");
    const std::string mode = args.value("mode", "bm25");
    const OpenIndex index = openIndex(args, mode != "bm25");
    const std::shared_ptr<const retrieval::Retriever> retriever = index.forMode(mode, args.required("index"));
    const retrieval::Corpus passages = index.bm25->passages();
    const std::vector<QuestionLine> lines = readQuestions(inputPath, field);
    const bool chain = args.has("chain");

    const std::string part = out + ".part";
    std::ofstream file(part, std::ios::binary | std::ios::trunc);
    if (!file)
        throw data::InputException({out, 0, "cannot write"});
    const bool progress = stderrIsTerminal() && lines.size() >= 100;
    try {
        for (size_t i = 0; i < lines.size(); ++i) {
            nlohmann::ordered_json j = lines[i].json;
            const auto search = [&](const std::string &query) {
                nlohmann::ordered_json retrieved = nlohmann::ordered_json::array();
                for (const retrieval::Hit &h : retriever->search(query, k)) {
                    const retrieval::Passage *p = passages.find(h.id);
                    nlohmann::ordered_json r;
                    r["id"] = h.id;
                    r["title"] = p ? p->title : "";
                    r["text"] = p ? p->text : "";
                    r["score"] = h.score;
                    retrieved.push_back(std::move(r));
                }
                return retrieved;
            };
            j["retrieved"] = search(lines[i].question);
            if (chain) {
                const auto c = j.find("chain");
                if (c == j.end() || !c->is_array())
                    throw data::InputException({inputPath, lines[i].line, "field \"chain\": missing or not an array (--chain)"});
                for (size_t h = 0; h < c->size(); ++h) {
                    nlohmann::ordered_json &step = (*c)[h];
                    const auto q = step.is_object() ? step.find("subquery") : step.end();
                    if (!step.is_object() || q == step.end() || !q->is_string())
                        throw data::InputException({inputPath, lines[i].line,
                                                    "field \"chain[" + std::to_string(h) + "].subquery\": missing or not a string"});
                    step["retrieved"] = search(q->get<std::string>());
                }
            }
            file << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
            if (progress && ((i + 1) % 100 == 0 || i + 1 == lines.size()))
                std::cerr << "\rannotated " << (i + 1) << "/" << lines.size() << std::flush;
        }
        if (progress)
            std::cerr << "\n";
        file.close();
        if (!file)
            throw data::InputException({out, 0, "write failed (disk full?)"});
    } catch (...) {
        file.close();
        std::remove(part.c_str());
        throw;
    }
    std::filesystem::rename(part, out);
    nlohmann::ordered_json j;
    j["out"] = out;
    j["lines"] = lines.size();
    j["mode"] = mode;
    j["k"] = k;
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

// The gold ids of a line: a string, an integer or a list of them (null: none).
std::vector<std::string> goldIds(const nlohmann::ordered_json &line, const std::string &field, const std::string &path,
                                 size_t lineNo)
{
    const auto it = line.find(field);
    if (it == line.end())
        throw data::InputException({path, lineNo, "field \"" + field + "\": missing"});
    auto one = [&](const nlohmann::ordered_json &v) -> std::string {
        if (v.is_string())
            return v.get<std::string>();
        if (v.is_number_integer())
            return v.dump();
        throw data::InputException({path, lineNo, "field \"" + field + "\": ids must be strings or integers, not " +
                                                      std::string(v.type_name())});
    };
    std::vector<std::string> ids;
    if (it->is_null())
        return ids;
    if (it->is_array()) {
        for (const auto &v : *it)
            ids.push_back(one(v));
    } else {
        ids.push_back(one(*it));
    }
    return ids;
}

int evaluate(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"index", "input", "query-field", "gold-field", "k", "mode", "weights", "dense", "title-weight"},
                           {"help"}});
    if (args.has("help")) {
        std::cout << kEvalHelp;
        return kExitOk;
    }
    const std::string indexPath = args.required("index");
    const std::string inputPath = args.required("input");
    const std::string queryField = args.required("query-field");
    const std::string goldField = args.required("gold-field");
    std::vector<int> ks;
    for (const std::string &k : splitCommas(args.value("k", "1,5,10")))
        ks.push_back(parsePositive("k", k, kMaxK));
    if (ks.empty())
        throw UsageError{"--k needs at least one cut-off"};
    const int maxK = *std::max_element(ks.begin(), ks.end());

    std::vector<std::string> modes = splitCommas(args.value("mode"));
    const OpenIndex index = openIndex(args, modes.empty() || modes != std::vector<std::string>{"bm25"});
    if (modes.empty()) {
        modes = {"bm25"};
        if (index.dense)
            modes.insert(modes.end(), {"dense", "hybrid"});
    }
    std::vector<std::shared_ptr<const retrieval::Retriever>> retrievers;
    for (const std::string &m : modes)
        retrievers.push_back(index.forMode(m, indexPath));

    const std::vector<QuestionLine> lines = readQuestions(inputPath, queryField);
    const retrieval::Corpus passages = index.bm25->passages();
    std::vector<std::vector<std::string>> gold;
    size_t unknownGold = 0;
    for (const QuestionLine &q : lines) {
        gold.push_back(goldIds(q.json, goldField, inputPath, q.line));
        for (const std::string &id : gold.back())
            if (!passages.find(id)) {
                if (++unknownGold <= 5)
                    std::cerr << inputPath << ":" << q.line << ": gold id \"" << id << "\" is no passage of the index"
                              << std::endl;
            }
    }

    nlohmann::ordered_json result;
    nlohmann::ordered_json perMode = nlohmann::ordered_json::object();
    size_t queries = 0, skipped = 0;
    for (size_t m = 0; m < modes.size(); ++m) {
        std::vector<retrieval::RankedQuery> ranked;
        ranked.reserve(lines.size());
        for (size_t i = 0; i < lines.size(); ++i) {
            retrieval::RankedQuery r;
            r.gold = gold[i];
            if (!r.gold.empty())
                for (const retrieval::Hit &h : retrievers[m]->search(lines[i].question, maxK))
                    r.ranked.push_back(h.id);
            ranked.push_back(std::move(r));
        }
        const retrieval::RetrievalMetrics metrics = retrieval::computeRetrievalMetrics(ranked, ks);
        queries = metrics.queries;
        skipped = metrics.skipped;
        nlohmann::ordered_json j;
        for (size_t i = 0; i < ks.size(); ++i)
            j["recall@" + std::to_string(ks[i])] = metrics.recall[i];
        for (size_t i = 0; i < ks.size(); ++i)
            j["hit@" + std::to_string(ks[i])] = metrics.hit[i];
        j["mrr"] = metrics.mrr;
        perMode[modes[m]] = j;
    }
    result["queries"] = queries;
    result["skipped"] = skipped;
    result["unknown_gold_ids"] = unknownGold;
    result["k"] = ks;
    result["modes"] = perMode;
    std::cout << result.dump() << std::endl;
    return kExitOk;
}

} // namespace

int retrieveCommand(const std::vector<std::string> &args)
{
    return dispatch("retrieve", kRetrieveHelp, args,
                    {{"index", buildIndex}, {"query", query}, {"annotate", annotate}, {"eval", evaluate}});
}

} // namespace rwb::cli
