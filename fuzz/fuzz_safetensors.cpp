// Any bytes as a .safetensors file: SafetensorsFile::open maps it and validates the header
// against the file, refusing with data::InputException, or gives tensors whose views lie
// inside the mapping (every byte of each is read, so that ASan sees a view past the end).
#include "data/jsonl.h"
#include "model/safetensors.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <sys/mman.h>
#include <unistd.h>

namespace {

int fileDescriptor()
{
    static const int fd = [] {
        const int f = memfd_create("fuzz.safetensors", 0);
        if (f < 0) {
            perror("memfd_create");
            abort();
        }
        return f;
    }();
    return fd;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const int fd = fileDescriptor();
    if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != static_cast<ssize_t>(size))
        abort();
    const std::string path = "/proc/self/fd/" + std::to_string(fd);
    try {
        const rwb::model::SafetensorsFile file = rwb::model::SafetensorsFile::open(path);
        unsigned sum = 0;
        for (const rwb::model::TensorView &t : file.tensors()) {
            (void)t.numel();
            for (size_t i = 0; i < t.bytes; ++i)
                sum += t.data[i];
            if (file.find(t.name) == nullptr)
                abort(); // every tensor listed is found by its name
        }
        for (const auto &[key, value] : file.metadata())
            sum += key.size() + value.size();
        (void)sum;
    } catch (const rwb::data::InputException &) {
    }
    return 0;
}
