#pragma once

// The safetensors format: a reader that memory-maps a file and validates all of it,
// a reader for Hugging Face model folders (one file or a sharded index), and a writer.
// Plain C++ (no libtorch): converting to the compute dtype is the model loader's job.
//
// Layout of a file: 8 bytes little-endian u64 N, N bytes of JSON
//   {"NAME": {"dtype": "F32", "shape": [2, 3], "data_offsets": [BEGIN, END]}, …,
//    "__metadata__": {"key": "value", …}}
// then the data section; offsets count from its start (byte 8 + N). Tensors are
// row-major, little-endian, and together cover the data section exactly.
//
// Errors in a file are data::InputException ("FILE: reason", with "tensor NAME" in the
// reason where one tensor is at fault): see docs/model-files.md for the list.
//
// Threads: an open file or model is immutable; any number of threads may read it.

#include "model/dtype.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace rwb::model {

// One tensor of an open file. `data` points into the file's read-only mapping and is valid
// while the SafetensorsFile (or SafetensorsModel) that owns it lives, also after a move.
// `data` is aligned only as well as the file lays tensors out (files written by the
// reference writer, and by writeSafetensors() with tensors ordered by falling dtype size,
// are aligned): copy (memcpy) rather than casting it to a wider type.
struct TensorView {
    std::string name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape; // empty: a scalar (one element)
    const uint8_t *data = nullptr;
    size_t bytes = 0; // numel() × dtypeSize(dtype)

    int64_t numel() const;
};

// One open .safetensors file, mapped read-only (mmap, MAP_PRIVATE) until destruction.
// Movable, not copyable. If another process truncates the file while it is mapped,
// reading the lost pages raises SIGBUS: model files are treated as immutable.
class SafetensorsFile {
public:
    // Opens, maps and validates the whole header against the file: a bad file throws
    // data::InputException naming `path` (and the tensor, where one is at fault).
    static SafetensorsFile open(const std::string &path);

    SafetensorsFile(SafetensorsFile &&other) noexcept;
    SafetensorsFile &operator=(SafetensorsFile &&other) noexcept;
    SafetensorsFile(const SafetensorsFile &) = delete;
    SafetensorsFile &operator=(const SafetensorsFile &) = delete;
    ~SafetensorsFile();

    const std::string &path() const { return m_path; }
    // Every tensor, in data-offset order.
    const std::vector<TensorView> &tensors() const { return m_tensors; }
    // nullptr when the file has no tensor of that name.
    const TensorView *find(std::string_view name) const;
    // The "__metadata__" object (empty when the file has none).
    const std::map<std::string, std::string> &metadata() const { return m_metadata; }

private:
    SafetensorsFile() = default;
    void unmap();

    std::string m_path;
    void *m_map = nullptr;
    size_t m_mapSize = 0;
    std::vector<TensorView> m_tensors;
    std::map<std::string, size_t, std::less<>> m_byName; // name → index in m_tensors
    std::map<std::string, std::string> m_metadata;
};

// The weights of a Hugging Face model folder: `model.safetensors`, or
// `model.safetensors.index.json` whose "weight_map" names the shard holding each tensor
// (the index wins when both exist). `open()` also accepts the path of a single
// .safetensors file. Movable, not copyable (it owns the open files).
class SafetensorsModel {
public:
    // Opens and validates every file: throws data::InputException naming the folder,
    // the index or the shard at fault (a shard listed but missing names the index and the
    // shard; a tensor listed in the index but absent from its shard names the index,
    // the tensor and the shard).
    static SafetensorsModel open(const std::string &folder);

    SafetensorsModel(SafetensorsModel &&) noexcept = default;
    SafetensorsModel &operator=(SafetensorsModel &&) noexcept = default;
    SafetensorsModel(const SafetensorsModel &) = delete;
    SafetensorsModel &operator=(const SafetensorsModel &) = delete;

    // nullptr when absent. With an index, only the tensors it lists are visible.
    const TensorView *find(std::string_view name) const;
    // Throws data::InputException "FILE: tensor NAME missing", FILE being the file or the
    // index that was expected to hold it.
    const TensorView &require(std::string_view name) const;
    // Every tensor name, sorted.
    std::vector<std::string> names() const;

private:
    SafetensorsModel() = default;

    std::string m_source; // model.safetensors or the index: what a missing tensor is reported against
    std::vector<SafetensorsFile> m_files;
    std::map<std::string, const TensorView *, std::less<>> m_tensors;
};

// One tensor for writeSafetensors(); `data` (`bytes` long) is only read during the call.
struct TensorToWrite {
    std::string name;
    DType dtype = DType::F32;
    std::vector<int64_t> shape;
    const void *data = nullptr;
    size_t bytes = 0;
};

// Writes a .safetensors file atomically: a temporary file beside `path`, flushed to disk,
// then renamed over it, so readers see the old file or the new one and never a part.
// The header is compact JSON with "__metadata__" first (omitted when empty) and the
// tensors in the given order and laid out in that order, padded with spaces to a
// multiple of 8 bytes as the reference writer does.
// Throws std::invalid_argument (before touching the disk) for a negative dimension,
// bytes ≠ numel × itemsize, a null `data` with bytes > 0, a duplicate name, a tensor named
// "__metadata__" or a name or metadata that is not valid UTF-8; std::runtime_error naming
// `path` when writing fails (nothing is left behind then).
void writeSafetensors(const std::string &path, const std::vector<TensorToWrite> &tensors,
                      const std::map<std::string, std::string> &metadata = {});

} // namespace rwb::model
