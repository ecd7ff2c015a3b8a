#include "retrieval/denseretriever.h"

#include "data/jsonl.h"
#include "retrieval/bm25index.h"
#include "retrieval/indexfile.h"
#include "sqlite/statement.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <unordered_map>

namespace rwb::retrieval {

namespace {

const char *const kVectorTablesSql =
    "CREATE TABLE IF NOT EXISTS embedders(name TEXT PRIMARY KEY, dimension INTEGER NOT NULL, state BLOB);\n"
    "CREATE TABLE IF NOT EXISTS vectors(embedder TEXT NOT NULL, seq INTEGER NOT NULL, indices BLOB,\n"
    "                                   vals BLOB NOT NULL, PRIMARY KEY (embedder, seq)) WITHOUT ROWID;\n";

// Little-endian encodings of uint32 and float32 arrays (a float's bits as a uint32).
template <typename T>
std::string encode(const std::vector<T> &values)
{
    static_assert(sizeof(T) == 4);
    std::string out(values.size() * 4, '\0');
    for (size_t i = 0; i < values.size(); ++i) {
        uint32_t bits;
        std::memcpy(&bits, &values[i], 4);
        for (int b = 0; b < 4; ++b)
            out[4 * i + b] = static_cast<char>((bits >> (8 * b)) & 0xff);
    }
    return out;
}

template <typename T>
std::vector<T> decode(std::string_view bytes)
{
    static_assert(sizeof(T) == 4);
    std::vector<T> out(bytes.size() / 4);
    for (size_t i = 0; i < out.size(); ++i) {
        uint32_t bits = 0;
        for (int b = 0; b < 4; ++b)
            bits |= static_cast<uint32_t>(static_cast<unsigned char>(bytes[4 * i + b])) << (8 * b);
        std::memcpy(&out[i], &bits, 4);
    }
    return out;
}

bool hasVectorTables(const IndexFile &db)
{
    sqlite::Statement s(db, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('embedders', 'vectors')");
    return s.step() && s.columnInt(0) == 2;
}

} // namespace

DenseRetriever::DenseRetriever(std::shared_ptr<const embed::Embedder> embedder) : m_embedder(std::move(embedder))
{
    if (!m_embedder)
        throw std::invalid_argument("dense retriever: no embedder");
    m_dimension = m_embedder->dimension();
    if (m_dimension <= 0)
        throw std::invalid_argument("dense retriever: embedder " + m_embedder->name() + " has dimension " +
                                    std::to_string(m_dimension));
}

DenseRetriever::Row DenseRetriever::makeRow(const std::vector<float> &v)
{
    Row row;
    size_t nonZero = 0;
    double norm2 = 0.0;
    for (float x : v) {
        nonZero += x != 0.0f;
        norm2 += static_cast<double>(x) * x;
    }
    row.norm = std::sqrt(norm2);
    if (2 * nonZero <= v.size()) {
        row.indices.reserve(nonZero);
        row.values.reserve(nonZero);
        for (size_t i = 0; i < v.size(); ++i)
            if (v[i] != 0.0f) {
                row.indices.push_back(static_cast<uint32_t>(i));
                row.values.push_back(v[i]);
            }
    } else {
        row.values = v;
    }
    return row;
}

double DenseRetriever::dot(const std::vector<float> &query, const Row &row) const
{
    double sum = 0.0;
    if (row.indices.empty() && row.values.size() == query.size()) {
        for (size_t i = 0; i < query.size(); ++i)
            sum += static_cast<double>(query[i]) * row.values[i];
    } else {
        for (size_t i = 0; i < row.indices.size(); ++i)
            sum += static_cast<double>(query[row.indices[i]]) * row.values[i];
    }
    return sum;
}

std::unique_ptr<DenseRetriever> DenseRetriever::build(std::shared_ptr<const embed::Embedder> embedder,
                                                      const Corpus &corpus, const Progress &progress)
{
    std::unique_ptr<DenseRetriever> r(new DenseRetriever(std::move(embedder)));
    const std::vector<Passage> &passages = corpus.passages();
    r->m_ids.reserve(passages.size());
    r->m_rows.reserve(passages.size());
    std::vector<std::string> batch;
    for (size_t start = 0; start < passages.size(); start += kBatch) {
        const size_t end = std::min(passages.size(), start + kBatch);
        batch.clear();
        for (size_t i = start; i < end; ++i)
            batch.push_back(Corpus::embeddingText(passages[i]));
        const std::vector<std::vector<float>> vectors = r->m_embedder->embed(batch, embed::EmbedRole::Document);
        if (vectors.size() != batch.size())
            throw std::runtime_error("embedder " + r->m_embedder->name() + " returned " +
                                     std::to_string(vectors.size()) + " vectors for " + std::to_string(batch.size()) +
                                     " texts");
        for (size_t i = 0; i < vectors.size(); ++i) {
            if (vectors[i].size() != static_cast<size_t>(r->m_dimension))
                throw std::runtime_error("embedder " + r->m_embedder->name() + " returned a vector of " +
                                         std::to_string(vectors[i].size()) + " values, not " +
                                         std::to_string(r->m_dimension));
            r->m_ids.push_back(passages[start + i].id);
            r->m_rows.push_back(makeRow(vectors[i]));
        }
        if (progress && !progress(end, passages.size()))
            return nullptr;
    }
    return r;
}

std::vector<DenseRetriever::StoredEmbedder> DenseRetriever::stored(const std::string &indexPath)
{
    const Bm25Index check(indexPath); // throws InputException when it is not an index
    const IndexFile db(indexPath, IndexFile::Mode::ReadOnly);
    std::vector<StoredEmbedder> out;
    if (!hasVectorTables(db))
        return out;
    sqlite::Statement s(db, "SELECT e.name, e.dimension, e.state, (SELECT count(*) FROM vectors v WHERE "
                                "v.embedder = e.name) FROM embedders e ORDER BY e.name");
    while (s.step())
        out.push_back({s.columnText(0), static_cast<int>(s.columnInt(1)), std::string(s.columnBlob(2)),
                       static_cast<size_t>(s.columnInt(3))});
    return out;
}

std::unique_ptr<DenseRetriever> DenseRetriever::load(const std::string &indexPath,
                                                     std::shared_ptr<const embed::Embedder> embedder)
{
    std::unique_ptr<DenseRetriever> r(new DenseRetriever(std::move(embedder)));
    const std::string name = r->m_embedder->name();
    auto bad = [&](const std::string &why) {
        return data::InputException({indexPath, 0, "vectors of embedder \"" + name + "\": " + why});
    };
    const Bm25Index index(indexPath);
    const IndexFile db(indexPath, IndexFile::Mode::ReadOnly);
    if (!hasVectorTables(db))
        throw bad("the index holds no vectors (build it with a dense embedder)");
    sqlite::Statement dim(db, "SELECT dimension FROM embedders WHERE name = ?");
    dim.bindTextCopy(1, name);
    if (!dim.step())
        throw bad("none in this index");
    if (dim.columnInt(0) != r->m_dimension)
        throw bad("stored with dimension " + std::to_string(dim.columnInt(0)) + ", the embedder gives " +
                  std::to_string(r->m_dimension));
    sqlite::Statement s(db, "SELECT p.id, v.indices, v.vals, v.indices IS NULL FROM passages p LEFT JOIN vectors v "
                                "ON v.seq = p.seq AND v.embedder = ? ORDER BY p.seq");
    s.bindTextCopy(1, name);
    while (s.step()) {
        const std::string id = s.columnText(0);
        if (s.isNull(2))
            throw bad("passage \"" + id + "\" has no vector");
        const std::string vals(s.columnBlob(2));
        const bool dense = s.columnInt(3) != 0;
        const std::string indices = dense ? std::string() : std::string(s.columnBlob(1));
        if (vals.size() % 4 != 0 || (dense && vals.size() != 4 * static_cast<size_t>(r->m_dimension)) ||
            (!dense && indices.size() != vals.size()))
            throw bad("passage \"" + id + "\": the stored vector has the wrong size");
        Row row;
        row.values = decode<float>(vals);
        row.indices = decode<uint32_t>(indices);
        double norm2 = 0.0;
        for (size_t i = 0; i < row.values.size(); ++i) {
            if (!dense && row.indices[i] >= static_cast<uint32_t>(r->m_dimension))
                throw bad("passage \"" + id + "\": an index is out of range");
            norm2 += static_cast<double>(row.values[i]) * row.values[i];
        }
        row.norm = std::sqrt(norm2);
        r->m_ids.push_back(id);
        r->m_rows.push_back(std::move(row));
    }
    return r;
}

void DenseRetriever::save(const std::string &indexPath, std::string_view embedderState) const
{
    const Bm25Index index(indexPath);
    IndexFile db(indexPath, IndexFile::Mode::ReadWrite);
    db.exec("BEGIN IMMEDIATE", "cannot start writing vectors");
    db.exec(kVectorTablesSql, "cannot create the vector tables");
    std::unordered_map<std::string, int64_t> seqOf;
    {
        sqlite::Statement s(db, "SELECT id, seq FROM passages");
        while (s.step())
            seqOf.emplace(s.columnText(0), s.columnInt(1));
    }
    if (seqOf.size() != m_ids.size())
        throw data::InputException({indexPath, 0, "the index has " + std::to_string(seqOf.size()) +
                                                      " passages, the dense retriever " + std::to_string(m_ids.size())});
    const std::string name = m_embedder->name();
    sqlite::Statement clear(db, "DELETE FROM vectors WHERE embedder = ?");
    clear.bindTextCopy(1, name);
    clear.run();
    sqlite::Statement addEmbedder(db, "INSERT OR REPLACE INTO embedders(name, dimension, state) VALUES (?, ?, ?)");
    addEmbedder.bindTextCopy(1, name);
    addEmbedder.bind(2, static_cast<int64_t>(m_dimension));
    addEmbedder.bindBlobCopy(3, embedderState);
    addEmbedder.run();
    sqlite::Statement add(db, "INSERT INTO vectors(embedder, seq, indices, vals) VALUES (?, ?, ?, ?)");
    for (size_t i = 0; i < m_ids.size(); ++i) {
        const auto seq = seqOf.find(m_ids[i]);
        if (seq == seqOf.end())
            throw data::InputException({indexPath, 0, "passage \"" + m_ids[i] + "\" of the dense retriever is not in the index"});
        const Row &row = m_rows[i];
        add.bindTextCopy(1, name);
        add.bind(2, seq->second);
        if (row.indices.empty() && row.values.size() == static_cast<size_t>(m_dimension))
            add.bindNull(3);
        else
            add.bindBlobCopy(3, encode(row.indices));
        add.bindBlobCopy(4, encode(row.values));
        add.run();
    }
    db.exec("COMMIT", "cannot commit the vectors");
}

std::string DenseRetriever::name() const
{
    return "dense:" + m_embedder->name();
}

std::vector<Hit> DenseRetriever::search(const std::string &query, int k) const
{
    if (k <= 0)
        return {};
    const std::vector<std::vector<float>> q = m_embedder->embed({query}, embed::EmbedRole::Query);
    if (q.size() != 1)
        throw std::runtime_error("embedder " + m_embedder->name() + " returned " + std::to_string(q.size()) +
                                 " vectors for one query");
    return searchVector(q[0], k);
}

std::vector<Hit> DenseRetriever::searchVector(const std::vector<float> &query, int k) const
{
    if (query.size() != static_cast<size_t>(m_dimension))
        throw std::invalid_argument("dense retriever: a query vector of " + std::to_string(query.size()) +
                                    " values, not " + std::to_string(m_dimension));
    if (k <= 0)
        return {};
    double qNorm2 = 0.0;
    for (float x : query)
        qNorm2 += static_cast<double>(x) * x;
    const double qNorm = std::sqrt(qNorm2);
    std::vector<std::pair<double, size_t>> scored(m_rows.size());
    for (size_t i = 0; i < m_rows.size(); ++i) {
        const double denominator = qNorm * m_rows[i].norm;
        scored[i] = {denominator > 0.0 ? dot(query, m_rows[i]) / denominator : 0.0, i};
    }
    const size_t n = std::min(scored.size(), static_cast<size_t>(k));
    std::partial_sort(scored.begin(), scored.begin() + static_cast<std::ptrdiff_t>(n), scored.end(),
                      [](const auto &a, const auto &b) { return a.first != b.first ? a.first > b.first : a.second < b.second; });
    std::vector<Hit> hits;
    hits.reserve(n);
    for (size_t i = 0; i < n; ++i)
        hits.push_back({m_ids[scored[i].second], scored[i].first, static_cast<int>(i) + 1});
    return hits;
}

} // namespace rwb::retrieval
