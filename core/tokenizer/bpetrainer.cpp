#include "tokenizer/bpetrainer.h"

#include "data/jsonl.h"
#include "tokenizer/bytelevel.h"
#include "tokenizer/bytelevelbpetokenizer.h"
#include "tokenizer/promptformat.h"
#include "text/unicodeform.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <queue>
#include <set>
#include <stdexcept>

namespace rwb::tokenizer {

namespace {

// The byte tokens come first: id = byte value.
constexpr int32_t kByteTokens = 256;

uint64_t pairKey(int32_t left, int32_t right)
{
    return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) | static_cast<uint32_t>(right);
}
int32_t leftOf(uint64_t key) { return static_cast<int32_t>(key >> 32); }
int32_t rightOf(uint64_t key) { return static_cast<int32_t>(key & 0xFFFFFFFFu); }

bool isSpecialMarker(const std::string &t)
{
    return t == "<pad>" || (t.size() >= 4 && t.compare(0, 2, "<|") == 0 && t.compare(t.size() - 2, 2, "|>") == 0);
}

// A candidate merge in the max-heap: the most frequent pair first, then the smaller key.
struct HeapEntry {
    int64_t count;
    uint64_t key;
    bool operator<(const HeapEntry &o) const { return count != o.count ? count < o.count : key > o.key; }
};

void writeFile(const std::string &path, const std::string &text)
{
    data::writeFileAtomically(path, text);
}

} // namespace

std::vector<std::string> BpeTrainerOptions::defaultAddedTokens()
{
    return {"<|endoftext|>", "<|im_start|>", "<|im_end|>", "<thinking>", "</thinking>", "<answer>", "</answer>", "<pad>"};
}

BpeTrainer::BpeTrainer(BpeTrainerOptions options) : m_options(std::move(options)), m_splitter(kQwenSplitRegex)
{
    std::set<std::string> seen;
    std::vector<AddedTokenMatcher::Entry> entries;
    for (const std::string &t : m_options.addedTokens) {
        if (t.empty())
            throw std::invalid_argument("an added token is empty");
        if (!text::isValidUtf8(t))
            throw std::invalid_argument("added token \"" + t + "\" is not valid UTF-8");
        if (!seen.insert(t).second)
            throw std::invalid_argument("added token \"" + t + "\" is given twice");
        entries.push_back({t, static_cast<int32_t>(entries.size()), false, false});
    }
    m_addedMatcher = AddedTokenMatcher(std::move(entries));
    const int64_t minimum = kByteTokens + static_cast<int64_t>(m_options.addedTokens.size());
    if (m_options.vocabSize < minimum)
        throw std::invalid_argument("vocabulary size " + std::to_string(m_options.vocabSize) +
                                    " is below 256 bytes + " + std::to_string(m_options.addedTokens.size()) +
                                    " added tokens = " + std::to_string(minimum));
    if (m_options.promptFormat != "plain" && m_options.promptFormat != "chatml")
        throw std::invalid_argument("prompt format \"" + m_options.promptFormat + "\" is not plain or chatml");
    if (m_options.minPairCount < 1)
        m_options.minPairCount = 1;
    for (int b = 0; b < kByteTokens; ++b)
        m_vocab.push_back(bytesToByteLevel(std::string(1, static_cast<char>(b))));
}

BpeTrainer::~BpeTrainer() = default;

void BpeTrainer::addText(std::string_view text)
{
    const std::string valid = text::validUtf8(text);
    auto countPlain = [&](std::string_view plain) {
        const std::string normalized = text::toUnicodeForm(plain, text::UnicodeForm::NFC);
        for (std::string_view piece : m_splitter.splitIsolated(normalized)) {
            ++m_wordCounts[std::string(piece)];
            ++m_totalWords;
        }
    };
    const std::string_view v(valid);
    for (const AddedTokenMatcher::Segment &s : m_addedMatcher.split(v))
        if (s.id < 0)
            countPlain(v.substr(s.begin, s.end - s.begin));
}

bool BpeTrainer::train(const ProgressCallback &progress)
{
    if (m_trained)
        throw std::logic_error("BpeTrainer::train() called twice");
    m_trained = true;

    // Words in a fixed order (sorted), as byte ids.
    std::vector<const std::pair<const std::string, uint64_t> *> sorted;
    sorted.reserve(m_wordCounts.size());
    for (const auto &entry : m_wordCounts)
        sorted.push_back(&entry);
    std::sort(sorted.begin(), sorted.end(), [](auto *a, auto *b) { return a->first < b->first; });
    std::vector<std::vector<int32_t>> words(sorted.size());
    std::vector<int64_t> counts(sorted.size());
    for (size_t w = 0; w < sorted.size(); ++w) {
        const std::string &bytes = sorted[w]->first;
        words[w].reserve(bytes.size());
        for (unsigned char b : bytes)
            words[w].push_back(b);
        counts[w] = static_cast<int64_t>(sorted[w]->second);
    }

    // Pair counts, and for each pair the words that held it when it was recorded (a word
    // may be listed twice or no longer hold the pair: both are checked when used).
    std::unordered_map<uint64_t, int64_t> pairCounts;
    std::unordered_map<uint64_t, std::vector<uint32_t>> where;
    for (uint32_t w = 0; w < words.size(); ++w) {
        const std::vector<int32_t> &s = words[w];
        for (size_t i = 0; i + 1 < s.size(); ++i) {
            const uint64_t k = pairKey(s[i], s[i + 1]);
            pairCounts[k] += counts[w];
            std::vector<uint32_t> &list = where[k];
            if (list.empty() || list.back() != w)
                list.push_back(w);
        }
    }
    std::priority_queue<HeapEntry> heap;
    for (const auto &[k, c] : pairCounts)
        heap.push({c, k});

    // Merges until the vocabulary reaches its size (a merge that spells a known token adds none).
    const size_t targetVocab = static_cast<size_t>(m_options.vocabSize) - m_options.addedTokens.size();
    const size_t target = targetVocab - kByteTokens;
    std::unordered_map<std::string, int32_t> ids;
    for (size_t id = 0; id < m_vocab.size(); ++id)
        ids.emplace(m_vocab[id], static_cast<int32_t>(id));
    const size_t step = std::max<size_t>(1, target / 100);
    std::vector<uint32_t> stamp(words.size(), UINT32_MAX);
    std::unordered_map<uint64_t, int64_t> delta;
    std::vector<int32_t> merged;
    BpeTrainingProgress report;
    report.target = target;

    while (m_vocab.size() < targetVocab && !heap.empty()) {
        const HeapEntry top = heap.top();
        heap.pop();
        auto current = pairCounts.find(top.key);
        if (current == pairCounts.end() || current->second != top.count)
            continue; // stale: a fresher entry for this pair is in the heap, or it is gone
        if (top.count < m_options.minPairCount)
            break;
        const int32_t a = leftOf(top.key), b = rightOf(top.key);
        // Two merge paths can spell the same token ("ab"+"c", "a"+"bc"): it keeps one id.
        std::string spelling = m_vocab[a] + m_vocab[b];
        auto [known, isNew] = ids.emplace(spelling, static_cast<int32_t>(m_vocab.size()));
        const int32_t c = known->second;
        m_merges.emplace_back(m_vocab[a], m_vocab[b]);
        if (isNew)
            m_vocab.push_back(std::move(spelling));
        const auto mergeIndex = static_cast<uint32_t>(m_merges.size());

        std::vector<uint32_t> holders = std::move(where[top.key]);
        where.erase(top.key);
        delta.clear();
        for (uint32_t w : holders) {
            if (stamp[w] == mergeIndex)
                continue;
            stamp[w] = mergeIndex;
            std::vector<int32_t> &s = words[w];
            const int64_t n = counts[w];
            merged.clear();
            bool changed = false;
            for (size_t i = 0; i < s.size(); ++i) {
                if (i + 1 < s.size() && s[i] == a && s[i + 1] == b) {
                    merged.push_back(c);
                    ++i;
                    changed = true;
                } else {
                    merged.push_back(s[i]);
                }
            }
            if (!changed)
                continue;
            for (size_t i = 0; i + 1 < s.size(); ++i)
                delta[pairKey(s[i], s[i + 1])] -= n;
            for (size_t i = 0; i + 1 < merged.size(); ++i) {
                const uint64_t k = pairKey(merged[i], merged[i + 1]);
                delta[k] += n;
                if (merged[i] == c || merged[i + 1] == c) {
                    std::vector<uint32_t> &list = where[k];
                    if (list.empty() || list.back() != w)
                        list.push_back(w);
                }
            }
            s.swap(merged);
        }
        for (const auto &[k, d] : delta) {
            if (d == 0)
                continue;
            auto it = pairCounts.find(k);
            const int64_t updated = (it == pairCounts.end() ? 0 : it->second) + d;
            if (updated <= 0) {
                if (it != pairCounts.end())
                    pairCounts.erase(it);
                continue;
            }
            if (it == pairCounts.end())
                pairCounts.emplace(k, updated);
            else
                it->second = updated;
            heap.push({updated, k});
        }

        report.merges = m_vocab.size() - kByteTokens;
        report.lastCount = top.count;
        if (progress && isNew && (report.merges % step == 0 || report.merges == target) && !progress(report))
            return false;
    }
    report.merges = m_vocab.size() - kByteTokens;
    if (progress && report.merges != target)
        progress(report); // stopped early: no pair left, or none frequent enough
    return true;
}

std::vector<AddedToken> BpeTrainer::addedTokens() const
{
    std::vector<AddedToken> out;
    for (const std::string &content : m_options.addedTokens) {
        AddedToken t;
        t.id = static_cast<int32_t>(m_vocab.size() + out.size());
        t.content = content;
        t.special = isSpecialMarker(content);
        out.push_back(std::move(t));
    }
    return out;
}

std::string BpeTrainer::tokenizerJson() const
{
    using Json = nlohmann::ordered_json;
    const Json byteLevel = {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"trim_offsets", false}, {"use_regex", false}};
    Json doc;
    doc["version"] = "1.0";
    doc["truncation"] = nullptr;
    doc["padding"] = nullptr;
    Json added = Json::array();
    for (const AddedToken &t : addedTokens())
        added.push_back({{"id", t.id},
                         {"content", t.content},
                         {"single_word", false},
                         {"lstrip", false},
                         {"rstrip", false},
                         {"normalized", false},
                         {"special", t.special}});
    doc["added_tokens"] = std::move(added);
    doc["normalizer"] = {{"type", "NFC"}};
    doc["pre_tokenizer"] = {
        {"type", "Sequence"},
        {"pretokenizers",
         Json::array({Json{{"type", "Split"},
                           {"pattern", {{"Regex", kQwenSplitRegex}}},
                           {"behavior", "Isolated"},
                           {"invert", false}},
                      byteLevel})}};
    doc["post_processor"] = byteLevel;
    doc["decoder"] = byteLevel;
    Json model;
    model["type"] = "BPE";
    model["dropout"] = nullptr;
    model["unk_token"] = nullptr;
    model["continuing_subword_prefix"] = "";
    model["end_of_word_suffix"] = "";
    model["fuse_unk"] = false;
    model["byte_fallback"] = false;
    model["ignore_merges"] = false;
    Json vocab = Json::object();
    for (size_t id = 0; id < m_vocab.size(); ++id)
        vocab[m_vocab[id]] = id;
    model["vocab"] = std::move(vocab);
    Json merges = Json::array();
    for (const auto &[l, r] : m_merges)
        merges.push_back(Json::array({l, r}));
    model["merges"] = std::move(merges);
    doc["model"] = std::move(model);
    return doc.dump(1) + "\n";
}

std::string BpeTrainer::tokenizerConfigJson() const
{
    using Json = nlohmann::ordered_json;
    const std::vector<AddedToken> added = addedTokens();
    auto has = [&](const std::string &content) {
        return std::any_of(added.begin(), added.end(), [&](const AddedToken &t) { return t.content == content; });
    };
    Json decoder = Json::object();
    for (const AddedToken &t : added)
        decoder[std::to_string(t.id)] = {{"content", t.content}, {"lstrip", false},       {"normalized", false},
                                         {"rstrip", false},      {"single_word", false}, {"special", t.special}};
    Json doc;
    doc["add_bos_token"] = false;
    doc["add_prefix_space"] = false;
    doc["added_tokens_decoder"] = std::move(decoder);
    doc["bos_token"] = nullptr;
    doc["clean_up_tokenization_spaces"] = false;
    // The end of a completion: <|im_end|> in ChatML, <|endoftext|> after a plain prompt.
    if (m_options.promptFormat == "chatml" && has("<|im_end|>"))
        doc["eos_token"] = "<|im_end|>";
    else if (has("<|endoftext|>"))
        doc["eos_token"] = "<|endoftext|>";
    else
        doc["eos_token"] = nullptr;
    doc["errors"] = "replace";
    doc["model_max_length"] = 32768;
    doc["pad_token"] = has("<pad>") ? Json("<pad>") : Json(nullptr);
    doc["split_special_tokens"] = false;
    doc["tokenizer_class"] = "PreTrainedTokenizerFast";
    doc["unk_token"] = nullptr;
    doc["rwb_prompt_format"] = m_options.promptFormat;
    doc["chat_template"] = PromptFormat(PromptFormat::kindFromName(m_options.promptFormat).value_or(PromptFormat::Kind::Plain),
                                        /*qwen3NoThinking=*/false)
                               .chatTemplate();
    return doc.dump(2) + "\n";
}

void BpeTrainer::save(const std::string &dir) const
{
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        throw data::InputException({dir, 0, "cannot create the folder: " + ec.message()});
    writeFile((std::filesystem::path(dir) / "tokenizer.json").string(), tokenizerJson());
    writeFile((std::filesystem::path(dir) / "tokenizer_config.json").string(), tokenizerConfigJson());
}

std::unique_ptr<ByteLevelBpeTokenizer> BpeTrainer::tokenizer() const
{
    std::unordered_map<std::string, int32_t> vocab;
    for (size_t id = 0; id < m_vocab.size(); ++id)
        vocab.emplace(m_vocab[id], static_cast<int32_t>(id));
    auto t = std::make_unique<ByteLevelBpeTokenizer>(std::move(vocab), m_merges, ByteLevelBpeTokenizer::qwenOptions());
    t->addAddedTokens(addedTokens());
    return t;
}

} // namespace rwb::tokenizer
