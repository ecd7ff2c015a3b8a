#include "cli.h"
#include "commands.h"

#include "data/jsonl.h"
#include "tokenizer/bpetrainer.h"
#include "tokenizer/promptformat.h"
#include "tokenizer/tokenizer.h"

#include <chrono>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace rwb::cli {

namespace {

const char *const kTokenizerHelp = R"(rwb tokenizer — tokenizers of model folders, and the BPE trainer

Subcommands:
  train    train a byte-level BPE tokenizer on a text corpus
  encode   token ids of a text
  decode   the text of token ids
  info     what a model folder's tokenizer is
Run "rwb tokenizer <subcommand> --help" for its options. Documentation: docs/tokenizers.md
)";

const char *const kTrainHelp = R"(rwb tokenizer train — train a byte-level BPE tokenizer

Usage: rwb tokenizer train --input corpus.txt [--input more.txt …] --vocab-size N --out DIR
                           [--added-token T …] [--no-default-tokens] [--min-count C]
                           [--prompt-format plain|chatml]

  --input F          UTF-8 text to learn from (repeatable)
  --vocab-size N     ids in all: 256 bytes + learned tokens + added tokens
  --out DIR          writes DIR/tokenizer.json and DIR/tokenizer_config.json
  --added-token T    one more added token (repeatable), after the defaults:
                     <|endoftext|> <|im_start|> <|im_end|> <thinking> </thinking>
                     <answer> </answer> <pad>
  --no-default-tokens  only the --added-token tokens
  --min-count C      never merge a pair seen fewer than C times (default 2); training may
                     then stop below N
  --prompt-format P  written as "rwb_prompt_format" (default plain: the paper's template)

Text is pre-tokenized as Qwen's tokenizer does (NFC, Qwen's split regex, bytes), then the
most frequent adjacent pair is merged until the vocabulary is full. Prints one JSON object:
{"out", "vocab_size", "learned", "merges", "words", "unique_words", "seconds"}.
)";

const char *const kEncodeHelp = R"(rwb tokenizer encode — token ids of a text

Usage: rwb tokenizer encode --model DIR (--text T | --input F) [--ordinary]

  --model DIR   a model folder with tokenizer.json or tokenizer.model
  --text T      the text (UTF-8)
  --input F     read the text from a file instead
  --ordinary    do not recognize added tokens (chat markers stay plain text)

Prints {"ids": [...], "tokens": [...]}; tokens in the model's own spelling ("Ġthe", "▁the").
)";

const char *const kDecodeHelp = R"(rwb tokenizer decode — the text of token ids

Usage: rwb tokenizer decode --model DIR --ids 1,2,3 [--skip-special]

  --model DIR      a model folder with tokenizer.json or tokenizer.model
  --ids LIST       token ids separated by commas or spaces ("[1, 2, 3]" works too)
  --skip-special   leave special tokens (<|im_end|>, <s>, …) out

Prints {"text": "..."}. Bytes that do not form UTF-8 and unknown ids come out as U+FFFD.
)";

const char *const kInfoHelp = R"(rwb tokenizer info — what a model folder's tokenizer is

Usage: rwb tokenizer info --model DIR

Prints {"kind", "vocab_size", "bos_id", "eos_id", "pad_id", "adds_bos", "prompt_format",
"stop_token_ids", "added_tokens", "notes"}; "notes" says what to know about how the files
were read (added-token ids after a gap, which transformers would renumber).
)";

// The folder's tokenizer; what the user should know about how it was read goes to stderr.
std::unique_ptr<tokenizer::Tokenizer> loadModel(const Args &args)
{
    auto tok = tokenizer::loadTokenizer(args.required("model"));
    for (const std::string &note : tok->notes())
        std::cerr << "rwb tokenizer: note: " << note << "\n";
    return tok;
}

nlohmann::json optionalId(std::optional<int32_t> id)
{
    return id ? nlohmann::json(*id) : nlohmann::json(nullptr);
}

std::vector<int32_t> parseIds(const std::string &text)
{
    std::vector<int32_t> ids;
    std::string number;
    auto flush = [&] {
        if (number.empty())
            return;
        size_t used = 0;
        long long v = 0;
        try {
            v = std::stoll(number, &used);
        } catch (const std::exception &) {
            used = 0;
        }
        if (used != number.size() || v < INT32_MIN || v > INT32_MAX)
            throw UsageError{"--ids: \"" + number + "\" is not a token id"};
        ids.push_back(static_cast<int32_t>(v));
        number.clear();
    };
    for (char c : text) {
        if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '[' || c == ']')
            flush();
        else
            number.push_back(c);
    }
    flush();
    return ids;
}

int train(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"input", "vocab-size", "out", "added-token", "min-count", "prompt-format"},
                           {"no-default-tokens", "help"}});
    if (args.has("help")) {
        std::cout << kTrainHelp;
        return kExitOk;
    }
    const std::vector<std::string> &inputs = args.values("input");
    if (inputs.empty())
        throw UsageError{"--input is required"};
    const double vocab = args.number("vocab-size", -1);
    if (!args.has("vocab-size"))
        throw UsageError{"--vocab-size is required"};
    if (vocab != std::floor(vocab) || vocab < 1 || vocab > INT32_MAX)
        throw UsageError{"--vocab-size must be a positive whole number"};
    const std::string out = args.required("out");

    tokenizer::BpeTrainerOptions options;
    options.vocabSize = static_cast<int32_t>(vocab);
    if (args.has("no-default-tokens"))
        options.addedTokens.clear();
    for (const std::string &t : args.values("added-token"))
        options.addedTokens.push_back(t);
    const double minCount = args.number("min-count", 2);
    if (minCount != std::floor(minCount) || minCount < 1)
        throw UsageError{"--min-count must be a whole number ≥ 1"};
    options.minPairCount = static_cast<int64_t>(minCount);
    options.promptFormat = args.value("prompt-format", "plain");

    std::unique_ptr<tokenizer::BpeTrainer> trainer;
    try {
        trainer = std::make_unique<tokenizer::BpeTrainer>(options);
    } catch (const std::invalid_argument &e) {
        throw UsageError{e.what()};
    }
    const auto start = std::chrono::steady_clock::now();
    for (const std::string &path : inputs)
        trainer->addText(data::readTextFile(path));
    const auto counted = std::chrono::steady_clock::now();
    const bool progress = stderrIsTerminal();
    trainer->train([&](const tokenizer::BpeTrainingProgress &p) {
        if (progress)
            std::cerr << "\rlearned " << p.merges << "/" << p.target << " tokens (last pair seen " << p.lastCount
                      << " times)   " << std::flush;
        return true;
    });
    if (progress)
        std::cerr << "\n";
    const auto trained = std::chrono::steady_clock::now();
    trainer->save(out);

    const size_t vocabSize = trainer->vocab().size() + trainer->addedTokens().size();
    if (vocabSize < static_cast<size_t>(options.vocabSize))
        printError("tokenizer train: the corpus gave only " + std::to_string(trainer->vocab().size() - 256) +
                   " tokens with pairs seen at least " + std::to_string(options.minPairCount) +
                   " times: the vocabulary has " + std::to_string(vocabSize) + " ids, not " +
                   std::to_string(options.vocabSize));
    nlohmann::ordered_json j;
    j["out"] = out;
    j["vocab_size"] = vocabSize;
    j["learned"] = trainer->vocab().size() - 256;
    j["merges"] = trainer->merges().size();
    j["added_tokens"] = trainer->addedTokens().size();
    j["words"] = trainer->wordCount();
    j["unique_words"] = trainer->uniqueWordCount();
    j["seconds_counting"] = std::chrono::duration<double>(counted - start).count();
    j["seconds_merging"] = std::chrono::duration<double>(trained - counted).count();
    std::cout << j.dump() << std::endl;
    return kExitOk;
}

int encode(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "text", "input"}, {"ordinary", "help"}});
    if (args.has("help")) {
        std::cout << kEncodeHelp;
        return kExitOk;
    }
    if (args.has("text") == args.has("input"))
        throw UsageError{"give either --text or --input"};
    const std::string text = args.has("text") ? args.value("text") : data::readTextFile(args.value("input"));
    const auto tok = loadModel(args);
    const std::vector<int32_t> ids = args.has("ordinary") ? tok->encodeOrdinary(text) : tok->encode(text);
    nlohmann::ordered_json j;
    j["ids"] = ids;
    nlohmann::json tokens = nlohmann::json::array();
    for (int32_t id : ids)
        tokens.push_back(tok->idToToken(id));
    j["tokens"] = std::move(tokens);
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return kExitOk;
}

int decode(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model", "ids"}, {"skip-special", "help"}});
    if (args.has("help")) {
        std::cout << kDecodeHelp;
        return kExitOk;
    }
    const std::vector<int32_t> ids = parseIds(args.required("ids"));
    const auto tok = loadModel(args);
    nlohmann::ordered_json j;
    j["text"] = tok->decode(ids, args.has("skip-special"));
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return kExitOk;
}

int info(const std::vector<std::string> &argv)
{
    const Args args(argv, {{"model"}, {"help"}});
    if (args.has("help")) {
        std::cout << kInfoHelp;
        return kExitOk;
    }
    const std::string dir = args.required("model");
    const auto tok = tokenizer::loadTokenizer(dir);
    const tokenizer::PromptFormat format = tokenizer::PromptFormat::forModel(dir, *tok);
    const std::vector<std::string> notes = tok->notes();
    nlohmann::ordered_json j;
    j["kind"] = tok->kind();
    j["vocab_size"] = tok->vocabSize();
    j["bos_id"] = optionalId(tok->bosId());
    j["eos_id"] = optionalId(tok->eosId());
    j["pad_id"] = optionalId(tok->padId());
    j["adds_bos"] = tok->addsBos();
    j["prompt_format"] = format.name();
    j["stop_token_ids"] = format.stopTokenIds(*tok);
    nlohmann::ordered_json added = nlohmann::ordered_json::array();
    for (const tokenizer::AddedToken &t : tok->addedTokens())
        added.push_back({{"id", t.id}, {"content", t.content}, {"special", t.special}});
    j["added_tokens"] = std::move(added);
    j["notes"] = notes;
    std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
    return kExitOk;
}

} // namespace

int tokenizerCommand(const std::vector<std::string> &args)
{
    return dispatch("tokenizer", kTokenizerHelp, args,
                    {{"train", train}, {"encode", encode}, {"decode", decode}, {"info", info}});
}

} // namespace rwb::cli
