#include "model/safetensors.h"

#include "data/jsonl.h"
#include "util/boundedjson.h"
#include "util/durablefile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <set>
#include <stdexcept>
#include <tuple>
#include <utility>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace rwb::model {

namespace {

using nlohmann::json;

// The reference implementation's limit on the header; a larger one is a corrupt length.
constexpr uint64_t kMaxHeaderBytes = 100'000'000;
// Bytes of the little-endian header length in front of the header.
constexpr size_t kPrefixBytes = 8;
// Quoted strings from a file are cut to this many bytes in messages.
constexpr size_t kMaxQuoted = 60;
// Deepest JSON nesting accepted in a header or an index (the format needs 3; serde_json,
// which the reference reader uses, stops at 128). Keeps recursive code such as dump() safe.
constexpr int kMaxJsonDepth = 64;
// The single-file and the sharded layouts of a Hugging Face model folder.
constexpr const char *kSingleFile = "model.safetensors";
constexpr const char *kIndexFile = "model.safetensors.index.json";

[[noreturn]] void fail(const std::string &file, std::string reason)
{
    throw data::InputException({file, 0, std::move(reason)});
}

// A JSON value as it appears in the file, shortened for a message.
std::string quoted(const json &value)
{
    std::string s = value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (s.size() > kMaxQuoted)
        s = s.substr(0, kMaxQuoted) + "…";
    return s;
}

std::string shapeText(const std::vector<int64_t> &shape)
{
    std::string s = "[";
    for (size_t i = 0; i < shape.size(); ++i)
        s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

// numel × itemsize, or nullopt when it does not fit (numel itself must fit int64, the
// type of shapes). A zero dimension makes the product 0 however large the others are.
std::optional<uint64_t> byteSize(const std::vector<int64_t> &shape, DType dtype)
{
    if (std::find(shape.begin(), shape.end(), 0) != shape.end())
        return 0;
    uint64_t numel = 1;
    for (int64_t d : shape) {
        if (d < 0 || __builtin_mul_overflow(numel, static_cast<uint64_t>(d), &numel))
            return std::nullopt;
    }
    if (numel > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
        return std::nullopt;
    uint64_t bytes = 0;
    if (__builtin_mul_overflow(numel, static_cast<uint64_t>(dtypeSize(dtype)), &bytes)
        || bytes > std::numeric_limits<size_t>::max())
        return std::nullopt;
    return bytes;
}

// A tensor entry of the header with its offsets, before the offsets are checked together.
struct Entry {
    TensorView view;
    uint64_t begin = 0;
    uint64_t end = 0;
};

// Checks one "NAME": {dtype, shape, data_offsets} entry against a data section of
// `dataBytes` bytes.
Entry parseEntry(const std::string &path, const std::string &name, const json &value, uint64_t dataBytes)
{
    const std::string where = "tensor " + name + ": ";
    if (!value.is_object())
        fail(path, where + "entry must be an object {dtype, shape, data_offsets}, not " + quoted(value));
    auto field = [&](const char *key) -> const json & {
        const auto it = value.find(key);
        if (it == value.end())
            fail(path, where + "missing \"" + key + "\"");
        return *it;
    };
    Entry e;
    e.view.name = name;

    const json &dtype = field("dtype");
    if (!dtype.is_string())
        fail(path, where + "\"dtype\" must be a string, not " + quoted(dtype));
    const auto parsed = parseDType(dtype.get_ref<const std::string &>());
    if (!parsed)
        fail(path, where + "unknown dtype " + quoted(dtype));
    e.view.dtype = *parsed;

    const json &shape = field("shape");
    if (!shape.is_array())
        fail(path, where + "\"shape\" must be an array of integers, not " + quoted(shape));
    for (const json &d : shape) {
        if (d.is_number_unsigned()) {
            const auto u = d.get<uint64_t>();
            if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()))
                fail(path, where + "dimension " + std::to_string(u) + " in \"shape\" is too large");
            e.view.shape.push_back(static_cast<int64_t>(u));
        } else if (d.is_number_integer()) {
            fail(path, where + "negative dimension " + std::to_string(d.get<int64_t>()) + " in \"shape\"");
        } else {
            fail(path, where + "\"shape\" must be an array of integers, not " + quoted(shape));
        }
    }
    const auto bytes = byteSize(e.view.shape, e.view.dtype);
    if (!bytes)
        fail(path, where + "shape " + shapeText(e.view.shape) + " of " + std::string(dtypeName(e.view.dtype))
                       + " overflows (numel × " + std::to_string(dtypeSize(e.view.dtype)) + " bytes)");
    e.view.bytes = static_cast<size_t>(*bytes);

    const json &offsets = field("data_offsets");
    if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned()
        || !offsets[1].is_number_unsigned())
        fail(path, where + "\"data_offsets\" must be [begin, end] with non-negative integers, not " + quoted(offsets));
    e.begin = offsets[0].get<uint64_t>();
    e.end = offsets[1].get<uint64_t>();
    const std::string range = "data_offsets [" + std::to_string(e.begin) + ", " + std::to_string(e.end) + "]";
    if (e.begin > e.end)
        fail(path, where + range + ": begin is after end");
    if (e.end > dataBytes)
        fail(path, where + range + ": end is beyond the data section (" + std::to_string(dataBytes) + " bytes)");
    if (e.end - e.begin != *bytes)
        fail(path, where + range + " hold " + std::to_string(e.end - e.begin) + " bytes but "
                       + std::string(dtypeName(e.view.dtype)) + " " + shapeText(e.view.shape) + " needs "
                       + std::to_string(*bytes));
    return e;
}

std::map<std::string, std::string> parseMetadata(const std::string &path, const json &value)
{
    std::map<std::string, std::string> metadata;
    if (value.is_null()) // the reference reader accepts null as "no metadata"
        return metadata;
    if (!value.is_object())
        fail(path, "\"__metadata__\" must be an object of strings, not " + quoted(value));
    for (const auto &[key, v] : value.items()) {
        if (!v.is_string())
            fail(path, "\"__metadata__\": value of " + quoted(json(key)) + " must be a string, not " + quoted(v));
        metadata.emplace(key, v.get<std::string>());
    }
    return metadata;
}

// nlohmann's messages start with "[json.exception.parse_error.101] ": keep what follows.
std::string jsonMessage(const json::exception &e)
{
    std::string s = e.what();
    if (!s.empty() && s.front() == '[') {
        const size_t close = s.find("] ");
        if (close != std::string::npos)
            s.erase(0, close + 2);
    }
    return s;
}

std::string errnoText(const std::string &what)
{
    return what + ": " + std::strerror(errno);
}

} // namespace

// ---------------------------------------------------------------------------------------
// TensorView, SafetensorsFile

int64_t TensorView::numel() const
{
    int64_t n = 1;
    for (int64_t d : shape)
        n *= d;
    return n;
}

SafetensorsFile::SafetensorsFile(SafetensorsFile &&other) noexcept
    : m_path(std::move(other.m_path)),
      m_map(std::exchange(other.m_map, nullptr)),
      m_mapSize(std::exchange(other.m_mapSize, 0)),
      m_tensors(std::move(other.m_tensors)),
      m_byName(std::move(other.m_byName)),
      m_metadata(std::move(other.m_metadata))
{
}

SafetensorsFile &SafetensorsFile::operator=(SafetensorsFile &&other) noexcept
{
    if (this != &other) {
        unmap();
        m_path = std::move(other.m_path);
        m_map = std::exchange(other.m_map, nullptr);
        m_mapSize = std::exchange(other.m_mapSize, 0);
        m_tensors = std::move(other.m_tensors);
        m_byName = std::move(other.m_byName);
        m_metadata = std::move(other.m_metadata);
    }
    return *this;
}

SafetensorsFile::~SafetensorsFile()
{
    unmap();
}

void SafetensorsFile::unmap()
{
    if (m_map)
        ::munmap(m_map, m_mapSize);
    m_map = nullptr;
    m_mapSize = 0;
}

const TensorView *SafetensorsFile::find(std::string_view name) const
{
    const auto it = m_byName.find(name);
    return it == m_byName.end() ? nullptr : &m_tensors[it->second];
}

SafetensorsFile SafetensorsFile::open(const std::string &path)
{
    SafetensorsFile f; // unmaps on every throw below
    f.m_path = path;

    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        fail(path, errnoText("cannot open"));
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        const std::string reason = errnoText("cannot stat");
        ::close(fd);
        fail(path, reason);
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        fail(path, "not a regular file");
    }
    const auto fileSize = static_cast<uint64_t>(st.st_size);
    if (fileSize < kPrefixBytes) {
        ::close(fd);
        fail(path, "file is " + std::to_string(fileSize) + " bytes, shorter than the 8-byte header length");
    }
    void *map = ::mmap(nullptr, fileSize, PROT_READ, MAP_PRIVATE, fd, 0);
    const int mapErrno = errno;
    ::close(fd); // the mapping keeps the file
    if (map == MAP_FAILED) {
        errno = mapErrno;
        fail(path, errnoText("cannot map"));
    }
    f.m_map = map;
    f.m_mapSize = fileSize;
    const auto *bytes = static_cast<const uint8_t *>(map);

    uint64_t headerBytes = 0;
    for (size_t i = 0; i < kPrefixBytes; ++i)
        headerBytes |= static_cast<uint64_t>(bytes[i]) << (8 * i);
    if (headerBytes > kMaxHeaderBytes)
        fail(path, "header length " + std::to_string(headerBytes) + " exceeds the limit of 100 MB (corrupt length?)");
    if (headerBytes > fileSize - kPrefixBytes)
        fail(path, "header length " + std::to_string(headerBytes) + " is larger than the rest of the file ("
                       + std::to_string(fileSize - kPrefixBytes) + " bytes): truncated file?");
    const uint64_t dataBytes = fileSize - kPrefixBytes - headerBytes;
    const auto *headerBegin = reinterpret_cast<const char *>(bytes + kPrefixBytes);
    const uint8_t *dataBegin = bytes + kPrefixBytes + headerBytes;

    json header;
    try {
        bool tooDeep = false;
        header = util::parseJsonOrDiscarded(std::string_view(headerBegin, headerBytes), &tooDeep, kMaxJsonDepth);
        if (tooDeep)
            fail(path, "header nests JSON deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        if (header.is_discarded())
            header = util::parseJson(std::string_view(headerBegin, headerBytes), kMaxJsonDepth); // for the message
    } catch (const json::exception &e) { // parse_error, or out_of_range for a number like 1e400
        fail(path, "header is not valid JSON: " + jsonMessage(e));
    }
    if (!header.is_object())
        fail(path, "header must be a JSON object, not " + quoted(header));

    std::vector<Entry> entries;
    entries.reserve(header.size());
    for (const auto &[key, value] : header.items()) {
        if (key == "__metadata__")
            f.m_metadata = parseMetadata(path, value);
        else
            entries.push_back(parseEntry(path, key, value, dataBytes));
    }

    // Sorted by offsets, the tensors must tile the data section: no overlap, no gap.
    std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
        return std::tie(a.begin, a.end, a.view.name) < std::tie(b.begin, b.end, b.view.name);
    });
    uint64_t covered = 0;
    for (size_t i = 0; i < entries.size(); ++i) {
        const Entry &e = entries[i];
        if (e.begin < covered) {
            const Entry &prev = entries[i - 1];
            fail(path, "tensor " + e.view.name + ": data_offsets [" + std::to_string(e.begin) + ", "
                           + std::to_string(e.end) + "] overlap tensor " + prev.view.name + " ["
                           + std::to_string(prev.begin) + ", " + std::to_string(prev.end) + "]");
        }
        if (e.begin > covered)
            fail(path, "bytes " + std::to_string(covered) + " to " + std::to_string(e.begin)
                           + " of the data section belong to no tensor (before tensor " + e.view.name + ")");
        covered = e.end;
    }
    if (covered != dataBytes)
        fail(path, "bytes " + std::to_string(covered) + " to " + std::to_string(dataBytes)
                       + " at the end of the data section belong to no tensor");

    f.m_tensors.reserve(entries.size());
    for (Entry &e : entries) {
        e.view.data = dataBegin + e.begin;
        f.m_byName.emplace(e.view.name, f.m_tensors.size());
        f.m_tensors.push_back(std::move(e.view));
    }
    return f;
}

// ---------------------------------------------------------------------------------------
// SafetensorsModel

SafetensorsModel SafetensorsModel::open(const std::string &folder)
{
    namespace fs = std::filesystem;
    SafetensorsModel m;
    std::error_code ec;

    if (fs::is_regular_file(folder, ec)) { // a single .safetensors file
        m.m_source = folder;
        m.m_files.push_back(SafetensorsFile::open(folder));
    } else {
        const fs::path dir(folder);
        const fs::path index = dir / kIndexFile;
        const fs::path single = dir / kSingleFile;
        if (fs::exists(index, ec)) {
            m.m_source = index.string();
            const std::string text = data::readTextFile(m.m_source);
            json j;
            try {
                bool tooDeep = false;
                j = util::parseJsonOrDiscarded(text, &tooDeep, kMaxJsonDepth);
                if (tooDeep)
                    fail(m.m_source, "JSON nests deeper than " + std::to_string(kMaxJsonDepth) + " levels");
                if (j.is_discarded())
                    j = util::parseJson(text, kMaxJsonDepth); // for the message
            } catch (const json::exception &e) {
                fail(m.m_source, "not valid JSON: " + jsonMessage(e));
            }
            if (!j.is_object())
                fail(m.m_source, "must be a JSON object with \"weight_map\", not " + quoted(j));
            const auto wm = j.find("weight_map");
            if (wm == j.end())
                fail(m.m_source, "missing \"weight_map\"");
            if (!wm->is_object())
                fail(m.m_source, "\"weight_map\" must be an object {tensor: shard file}, not " + quoted(*wm));

            std::map<std::string, std::vector<std::string>> byShard; // shard file → its tensors
            for (const auto &[name, shard] : wm->items()) {
                if (!shard.is_string())
                    fail(m.m_source, "weight_map: shard of tensor " + name + " must be a file name, not " + quoted(shard));
                const auto &file = shard.get_ref<const std::string &>();
                if (file.empty() || file == "." || file == ".." || file.find_first_of("/\\") != std::string::npos)
                    fail(m.m_source, "weight_map: shard " + quoted(shard) + " of tensor " + name
                                         + " must be a file name in the model folder");
                byShard[file].push_back(name);
            }
            m.m_files.reserve(byShard.size());
            for (const auto &[shard, names] : byShard) {
                const fs::path shardPath = dir / shard;
                if (!fs::exists(shardPath, ec))
                    fail(m.m_source, "shard " + shard + " (listed for tensor " + names.front()
                                         + (names.size() > 1 ? " and " + std::to_string(names.size() - 1) + " more" : "")
                                         + ") does not exist: " + shardPath.string());
                m.m_files.push_back(SafetensorsFile::open(shardPath.string()));
                const SafetensorsFile &file = m.m_files.back();
                for (const std::string &name : names) {
                    const TensorView *view = file.find(name);
                    if (!view)
                        fail(m.m_source, "tensor " + name + " is listed for shard " + shard
                                             + " but that shard does not hold it");
                    m.m_tensors.emplace(name, view);
                }
            }
            return m;
        }
        if (!fs::exists(single, ec)) {
            if (!fs::is_directory(dir, ec))
                fail(folder, "no such model folder or .safetensors file");
            fail(folder, std::string("no ") + kSingleFile + " or " + kIndexFile + " in the model folder");
        }
        m.m_source = single.string();
        m.m_files.push_back(SafetensorsFile::open(m.m_source));
    }
    // One file: every tensor it holds. (Views stay put when m is moved: they live in the
    // files' vectors, whose buffers move with them.)
    for (const TensorView &view : m.m_files.front().tensors())
        m.m_tensors.emplace(view.name, &view);
    return m;
}

const TensorView *SafetensorsModel::find(std::string_view name) const
{
    const auto it = m_tensors.find(name);
    return it == m_tensors.end() ? nullptr : it->second;
}

const TensorView &SafetensorsModel::require(std::string_view name) const
{
    if (const TensorView *view = find(name))
        return *view;
    fail(m_source, "tensor " + std::string(name) + " missing");
}

std::vector<std::string> SafetensorsModel::names() const
{
    std::vector<std::string> names;
    names.reserve(m_tensors.size());
    for (const auto &entry : m_tensors)
        names.push_back(entry.first);
    return names;
}

// ---------------------------------------------------------------------------------------
// The writer

void writeSafetensors(const std::string &path, const std::vector<TensorToWrite> &tensors,
                      const std::map<std::string, std::string> &metadata)
{
    const std::string where = "writeSafetensors(" + path + "): ";
    nlohmann::ordered_json header = nlohmann::ordered_json::object();
    if (!metadata.empty())
        header["__metadata__"] = metadata;
    std::set<std::string_view> seen;
    uint64_t offset = 0;
    for (const TensorToWrite &t : tensors) {
        const std::string tensor = "tensor " + t.name + ": ";
        if (t.name == "__metadata__")
            throw std::invalid_argument(where + "\"__metadata__\" is reserved and cannot name a tensor");
        if (!seen.insert(t.name).second)
            throw std::invalid_argument(where + tensor + "listed twice");
        for (int64_t d : t.shape) {
            if (d < 0)
                throw std::invalid_argument(where + tensor + "negative dimension in shape " + shapeText(t.shape));
        }
        const auto bytes = byteSize(t.shape, t.dtype);
        if (!bytes)
            throw std::invalid_argument(where + tensor + "shape " + shapeText(t.shape) + " overflows");
        if (*bytes != t.bytes)
            throw std::invalid_argument(where + tensor + std::to_string(t.bytes) + " bytes given but "
                                        + std::string(dtypeName(t.dtype)) + " " + shapeText(t.shape) + " needs "
                                        + std::to_string(*bytes));
        if (!t.data && t.bytes > 0)
            throw std::invalid_argument(where + tensor + "no data");
        header[t.name] = {{"dtype", std::string(dtypeName(t.dtype))}, {"shape", t.shape}, {"data_offsets", {offset, offset + *bytes}}};
        offset += *bytes;
    }
    std::string text;
    try {
        text = header.dump(); // compact, as serde_json writes it; strict UTF-8
    } catch (const nlohmann::ordered_json::type_error &e) {
        throw std::invalid_argument(where + "a tensor name or metadata is not valid UTF-8: " + jsonMessage(e));
    }
    text.append((8 - text.size() % 8) % 8, ' ');
    uint8_t prefix[kPrefixBytes];
    for (size_t i = 0; i < kPrefixBytes; ++i)
        prefix[i] = static_cast<uint8_t>(static_cast<uint64_t>(text.size()) >> (8 * i));

    std::string tmp;
    int fd = util::createTemporaryBeside(path, tmp);
    try {
        util::writeAll(fd, prefix, sizeof prefix, path);
        util::writeAll(fd, text.data(), text.size(), path);
        for (const TensorToWrite &t : tensors)
            util::writeAll(fd, t.data, t.bytes, path);
        if (::fsync(fd) != 0)
            throw std::runtime_error(path + ": " + errnoText("fsync failed"));
        const int closed = ::close(fd);
        fd = -1;
        if (closed != 0)
            throw std::runtime_error(path + ": " + errnoText("close failed"));
        if (::rename(tmp.c_str(), path.c_str()) != 0)
            throw std::runtime_error(path + ": " + errnoText("cannot rename " + tmp + " to it"));
    } catch (...) {
        if (fd >= 0)
            ::close(fd);
        ::unlink(tmp.c_str());
        throw;
    }
    // Make the rename itself durable.
    util::syncFolder(std::filesystem::path(path).parent_path().string());
}

} // namespace rwb::model
