// Any bytes as a trainer's rollout dump (`rwb import`): a verl JSONL, a TRL completions
// table (.json / .jsonl / .csv), OpenRLHF JSONL or wandb table, prime-rl's traces.jsonl or
// NeMo-RL's train data, named by the first byte along with the format asked for. Refused with data::InputException (the store as it was), or
// imported into a run store on tmpfs, which is started afresh every 1,000 inputs.
#include "data/jsonl.h"
#include "store/rolloutimport.h"
#include "store/runstore.h"
#include "store/storeerror.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <unistd.h>

namespace fs = std::filesystem;

namespace {

// The dump's file and the store, in a folder removed at exit.
struct Scratch {
    fs::path folder;
    std::unique_ptr<rwb::store::RunStore> store;
    Scratch()
        : folder(fs::path(fs::exists("/dev/shm") ? "/dev/shm" : "/tmp") / ("rwb-fuzz-import-" + std::to_string(getpid())))
    {
        fs::remove_all(folder);
        fs::create_directories(folder / "dump");
    }
    ~Scratch()
    {
        store.reset();
        std::error_code ec;
        fs::remove_all(folder, ec);
    }
};

Scratch &scratch()
{
    static Scratch s;
    return s;
}

const fs::path &folder()
{
    return scratch().folder;
}

std::unique_ptr<rwb::store::RunStore> &store()
{
    return scratch().store;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    static int inputs = 0;
    if (inputs++ % 1000 == 0) {
        store().reset();
        for (const char *suffix : {"", "-wal", "-shm"})
            fs::remove(folder() / (std::string("runs.db") + suffix));
        store() = std::make_unique<rwb::store::RunStore>((folder() / "runs.db").string());
    }
    const uint8_t choice = data[0];
    static const char *const kExtensions[] = {".jsonl", ".json", ".csv", ".jsonl"};
    static const rwb::store::DumpFormat kFormats[] = {rwb::store::DumpFormat::Auto, rwb::store::DumpFormat::Verl,
                                                      rwb::store::DumpFormat::Trl, rwb::store::DumpFormat::OpenRlhf};
    const fs::path file = folder() / "dump" / (std::string("step_1") + kExtensions[choice & 3]);
    {
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(data + 1), static_cast<std::streamsize>(size - 1));
    }
    rwb::store::ImportOptions options;
    options.format = kFormats[(choice >> 2) & 3];
    options.groupSize = (choice & 16) ? 2 : 0;
    options.includeEval = (choice & 32) != 0;
    if (choice & 64) // prime-rl's episodes and NeMo-RL's train data, asked for by name
        options.format = (choice & 128) ? rwb::store::DumpFormat::PrimeRl : rwb::store::DumpFormat::NemoRl;
    options.runName = "fuzz";
    try {
        (void)rwb::store::importRollouts(*store(), {file.string()}, options);
    } catch (const rwb::data::InputException &) {
    }
    fs::remove(file);
    return 0;
}
