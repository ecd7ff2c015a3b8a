#include "embed/lexicalembedder.h"

#include "data/jsonl.h"
#include "text/normalize.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unordered_map>

namespace rwb::embed {

namespace {

// FNV-1a (64-bit) offset basis and prime, applied per code point.
constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
constexpr uint64_t kFnvPrime = 0x100000001b3ULL;
// The first bytes of a state.
constexpr char kMagic[8] = {'r', 'w', 'b', 'l', 'e', 'x', '0', '1'};
// Bytes of a state before its entries, and per entry (u64 key, u32 df).
constexpr size_t kHeaderBytes = 8 + 4 * 3 + 8 + 8;
constexpr size_t kEntryBytes = 12;

// The splitmix64 finalizer: spreads FNV's weak low bits over the whole word. Never 0
// (0 marks an empty table slot).
uint64_t finalizeKey(uint64_t h)
{
    h ^= h >> 30;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 27;
    h *= 0x94d049bb133111ebULL;
    h ^= h >> 31;
    return h == 0 ? 1 : h;
}

void putU32(std::string &out, uint32_t v)
{
    for (int i = 0; i < 4; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

void putU64(std::string &out, uint64_t v)
{
    for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// Sorts 64-bit keys ascending: an LSD radix sort on the top 32 bits (4 passes of 8
// bits; a pass whose digit is the same for every key is skipped), then an insertion
// sort that orders keys sharing their top 32 bits (for the few hundred keys of a text
// almost never: it only checks neighbours). About 4 times faster than std::sort here,
// which matters for a reward's latency.
void sortKeys(std::vector<uint64_t> &keys)
{
    const size_t n = keys.size();
    if (n < 64) {
        std::sort(keys.begin(), keys.end());
        return;
    }
    uint32_t counts[4][256] = {};
    for (uint64_t k : keys)
        for (int d = 0; d < 4; ++d)
            ++counts[d][(k >> (32 + 8 * d)) & 0xff];
    std::vector<uint64_t> buffer(n);
    for (int d = 0; d < 4; ++d) {
        const int shift = 32 + 8 * d;
        if (counts[d][(keys[0] >> shift) & 0xff] == n)
            continue;
        uint32_t offsets[256];
        uint32_t sum = 0;
        for (int b = 0; b < 256; ++b) {
            offsets[b] = sum;
            sum += counts[d][b];
        }
        for (uint64_t k : keys)
            buffer[offsets[(k >> shift) & 0xff]++] = k;
        keys.swap(buffer);
    }
    for (size_t i = 1; i < n; ++i) {
        const uint64_t k = keys[i];
        size_t j = i;
        for (; j > 0 && keys[j - 1] > k; --j)
            keys[j] = keys[j - 1];
        keys[j] = k;
    }
}

uint64_t getLe(std::string_view bytes, size_t at, int width)
{
    uint64_t v = 0;
    for (int i = 0; i < width; ++i)
        v |= static_cast<uint64_t>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    return v;
}

} // namespace

LexicalEmbedder::LexicalEmbedder(const std::vector<std::string> &texts, const Options &options) : m_options(options)
{
    checkOptions(options);
    std::unordered_map<uint64_t, uint32_t> dfs;
    std::vector<uint64_t> keys;
    for (const std::string &t : texts) {
        keys = ngramKeys(t);
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        for (uint64_t k : keys)
            ++dfs[k];
    }
    m_documents = texts.size();
    std::vector<std::pair<uint64_t, uint32_t>> sorted(dfs.begin(), dfs.end());
    std::sort(sorted.begin(), sorted.end());
    buildTable(sorted);
}

void LexicalEmbedder::checkOptions(const Options &options)
{
    if (options.minN < 1 || options.maxN < options.minN || options.maxN > kMaxN)
        throw std::invalid_argument("lexical embedder: n-gram lengths must satisfy 1 <= min <= max <= " +
                                    std::to_string(kMaxN));
    if (options.dimensionBits < kMinDimensionBits || options.dimensionBits > kMaxDimensionBits)
        throw std::invalid_argument("lexical embedder: dimension bits must be in [" + std::to_string(kMinDimensionBits) +
                                    ", " + std::to_string(kMaxDimensionBits) + "]");
}

std::vector<uint64_t> LexicalEmbedder::ngramKeys(std::string_view text) const
{
    const std::u32string cps = text::normalize32(text);
    std::vector<uint64_t> keys;
    const size_t len = cps.size();
    const size_t minN = static_cast<size_t>(m_options.minN), maxN = static_cast<size_t>(m_options.maxN);
    keys.reserve(len * (maxN - minN + 1));
    for (size_t i = 0; i < len; ++i) {
        uint64_t h = kFnvOffset;
        for (size_t n = 1; n <= maxN && i + n <= len; ++n) {
            h = (h ^ static_cast<uint64_t>(cps[i + n - 1])) * kFnvPrime;
            if (n >= minN)
                keys.push_back(finalizeKey(h));
        }
    }
    return keys;
}

void LexicalEmbedder::buildTable(const std::vector<std::pair<uint64_t, uint32_t>> &dfs)
{
    size_t capacity = 16;
    while (capacity < 2 * dfs.size())
        capacity *= 2;
    m_slots.assign(capacity, Slot{});
    const uint64_t mask = capacity - 1;
    uint32_t maxDf = 0;
    for (const auto &[key, count] : dfs) {
        uint64_t i = key & mask;
        while (m_slots[i].key != 0)
            i = (i + 1) & mask;
        m_slots[i] = {key, count};
        maxDf = std::max(maxDf, count);
    }
    m_size = dfs.size();
    const double n = static_cast<double>(m_documents);
    m_idfByDf.resize(static_cast<size_t>(maxDf) + 1);
    for (size_t d = 0; d < m_idfByDf.size(); ++d)
        m_idfByDf[d] = std::log((1.0 + n) / (1.0 + static_cast<double>(d))) + 1.0;
}

uint32_t LexicalEmbedder::df(uint64_t key) const
{
    const uint64_t mask = m_slots.size() - 1;
    for (uint64_t i = key & mask;; i = (i + 1) & mask) {
        if (m_slots[i].key == key)
            return m_slots[i].df;
        if (m_slots[i].key == 0)
            return 0;
    }
}

double LexicalEmbedder::idf(std::string_view ngram) const
{
    const std::vector<uint64_t> keys = ngramKeys(ngram);
    // The whole n-gram is the last key of its first position, if its length is in range.
    const size_t len = text::normalize32(ngram).size();
    if (len < static_cast<size_t>(m_options.minN) || len > static_cast<size_t>(m_options.maxN))
        return m_idfByDf[0];
    return m_idfByDf[df(keys[len - static_cast<size_t>(m_options.minN)])];
}

LexicalEmbedder::SparseVector LexicalEmbedder::embedSparse(std::string_view text) const
{
    std::vector<uint64_t> keys = ngramKeys(text);
    sortKeys(keys);
    SparseVector v;
    v.keys.reserve(keys.size());
    v.values.reserve(keys.size());
    // Distinct keys, with their tf as the first values.
    for (size_t i = 0; i < keys.size();) {
        size_t j = i + 1;
        while (j < keys.size() && keys[j] == keys[i])
            ++j;
        v.keys.push_back(keys[i]);
        v.values.push_back(static_cast<double>(j - i));
        i = j;
    }
    // The df lookups miss the cache on a large vocabulary: fetch a few slots ahead.
    constexpr size_t kAhead = 8;
    const uint64_t mask = m_slots.size() - 1;
    double norm2 = 0.0;
    for (size_t i = 0; i < v.keys.size(); ++i) {
        if (i + kAhead < v.keys.size())
            __builtin_prefetch(&m_slots[v.keys[i + kAhead] & mask]);
        const double tf = v.values[i];
        const double w = (tf == 1.0 ? 1.0 : 1.0 + std::log(tf)) * m_idfByDf[df(v.keys[i])];
        v.values[i] = w;
        norm2 += w * w;
    }
    if (norm2 > 0.0) {
        const double inv = 1.0 / std::sqrt(norm2);
        for (double &w : v.values)
            w *= inv;
    }
    return v;
}

double LexicalEmbedder::cosine(const SparseVector &a, const SparseVector &b)
{
    double dot = 0.0;
    size_t i = 0, j = 0;
    while (i < a.keys.size() && j < b.keys.size()) {
        // Advances without a hard-to-predict branch (most keys are not shared).
        const uint64_t x = a.keys[i], y = b.keys[j];
        if (x == y)
            dot += a.values[i] * b.values[j];
        i += x <= y;
        j += y <= x;
    }
    return dot;
}

double LexicalEmbedder::similarity(std::string_view a, std::string_view b) const
{
    return cosine(embedSparse(a), embedSparse(b));
}

std::vector<std::vector<float>> LexicalEmbedder::embed(const std::vector<std::string> &texts, EmbedRole) const
{
    const uint64_t mask = static_cast<uint64_t>(dimension()) - 1;
    std::vector<std::vector<float>> out;
    out.reserve(texts.size());
    std::vector<double> acc(static_cast<size_t>(dimension()), 0.0); // zero between texts
    std::vector<uint64_t> buckets;
    for (const std::string &t : texts) {
        const SparseVector s = embedSparse(t);
        std::vector<float> v(static_cast<size_t>(dimension()), 0.0f);
        buckets.clear();
        for (size_t i = 0; i < s.keys.size(); ++i) {
            const uint64_t b = s.keys[i] & mask;
            acc[b] += (s.keys[i] >> 63) ? -s.values[i] : s.values[i];
            buckets.push_back(b);
        }
        std::sort(buckets.begin(), buckets.end());
        buckets.erase(std::unique(buckets.begin(), buckets.end()), buckets.end());
        double norm2 = 0.0;
        for (uint64_t b : buckets)
            norm2 += acc[b] * acc[b];
        const double inv = norm2 > 0.0 ? 1.0 / std::sqrt(norm2) : 0.0;
        for (uint64_t b : buckets) {
            v[b] = static_cast<float>(acc[b] * inv);
            acc[b] = 0.0;
        }
        out.push_back(std::move(v));
    }
    return out;
}

std::string LexicalEmbedder::state() const
{
    std::vector<std::pair<uint64_t, uint32_t>> entries;
    entries.reserve(m_size);
    for (const Slot &s : m_slots)
        if (s.key != 0)
            entries.emplace_back(s.key, s.df);
    std::sort(entries.begin(), entries.end());
    std::string out(kMagic, sizeof kMagic);
    out.reserve(kHeaderBytes + kEntryBytes * entries.size());
    putU32(out, static_cast<uint32_t>(m_options.minN));
    putU32(out, static_cast<uint32_t>(m_options.maxN));
    putU32(out, static_cast<uint32_t>(m_options.dimensionBits));
    putU64(out, m_documents);
    putU64(out, entries.size());
    for (const auto &[key, count] : entries) {
        putU64(out, key);
        putU32(out, count);
    }
    return out;
}

LexicalEmbedder LexicalEmbedder::fromState(std::string_view state, const std::string &source)
{
    auto bad = [&](const std::string &why) { return data::InputException({source, 0, "not a lexical embedder state: " + why}); };
    if (state.size() < kHeaderBytes || state.substr(0, sizeof kMagic) != std::string_view(kMagic, sizeof kMagic))
        throw bad("wrong header");
    LexicalEmbedder e;
    e.m_options.minN = static_cast<int>(getLe(state, 8, 4));
    e.m_options.maxN = static_cast<int>(getLe(state, 12, 4));
    e.m_options.dimensionBits = static_cast<int>(getLe(state, 16, 4));
    try {
        checkOptions(e.m_options);
    } catch (const std::invalid_argument &ex) {
        throw bad(ex.what());
    }
    e.m_documents = getLe(state, 20, 8);
    const uint64_t count = getLe(state, 28, 8);
    if (count > (state.size() - kHeaderBytes) / kEntryBytes || state.size() != kHeaderBytes + count * kEntryBytes)
        throw bad("its size does not match its entry count");
    std::vector<std::pair<uint64_t, uint32_t>> entries;
    entries.reserve(count);
    for (uint64_t i = 0; i < count; ++i) {
        const size_t at = kHeaderBytes + i * kEntryBytes;
        const uint64_t key = getLe(state, at, 8);
        const uint32_t d = static_cast<uint32_t>(getLe(state, at + 8, 4));
        if (key == 0 || (!entries.empty() && key <= entries.back().first))
            throw bad("keys are not strictly ascending");
        if (d == 0 || d > e.m_documents)
            throw bad("a document frequency is out of range");
        entries.emplace_back(key, d);
    }
    e.buildTable(entries);
    return e;
}

void LexicalEmbedder::save(const std::string &path) const
{
    data::writeFileAtomically(path, state());
}

LexicalEmbedder LexicalEmbedder::load(const std::string &path)
{
    return fromState(data::readTextFile(path), path);
}

} // namespace rwb::embed
