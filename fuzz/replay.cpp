// The fuzz harnesses as one plain program, in the main build and in ctest (fuzz_regressions):
// each file under FOLDER/<harness>/ is run once through that harness (compiled here with
// LLVMFuzzerTestOneInput renamed to rwbFuzz_<harness>). The crashes fuzzing found are kept
// in fuzz/regressions/<harness>/, so each stays a test in every build, the sanitizer build
// (scripts/sanitize.sh) included; a harness's own checks abort on a wrong result.
//   rwb_fuzz_replay FOLDER …
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

#define RWB_FUZZ_HARNESSES(X)                                                                                        \
    X(json) X(tokenizer_json) X(sentencepiece_model) X(safetensors) X(task_records) X(reward_config) X(mcts_tree)   \
        X(rollout_import) X(judge_reply) X(serve_request)

#define RWB_DECLARE(name) extern "C" int rwbFuzz_##name(const uint8_t *data, size_t size);
RWB_FUZZ_HARNESSES(RWB_DECLARE)
#undef RWB_DECLARE

namespace fs = std::filesystem;

int main(int argc, char **argv)
{
    using Harness = int (*)(const uint8_t *, size_t);
    std::map<std::string, Harness> harnesses;
#define RWB_ENTRY(name) harnesses[#name] = rwbFuzz_##name;
    RWB_FUZZ_HARNESSES(RWB_ENTRY)
#undef RWB_ENTRY
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FOLDER …  (each holding <harness>/ folders of inputs)\n", argv[0]);
        return 2;
    }
    int files = 0;
    for (int a = 1; a < argc; ++a) {
        if (!fs::is_directory(argv[a])) {
            std::fprintf(stderr, "%s: not a folder\n", argv[a]);
            return 2;
        }
        std::vector<fs::path> folders;
        for (const fs::directory_entry &e : fs::directory_iterator(argv[a]))
            if (e.is_directory())
                folders.push_back(e.path());
        std::sort(folders.begin(), folders.end());
        for (const fs::path &folder : folders) {
            const auto h = harnesses.find(folder.filename().string());
            if (h == harnesses.end()) {
                std::fprintf(stderr, "%s: no harness of that name\n", folder.c_str());
                return 2;
            }
            std::vector<fs::path> inputs;
            for (const fs::directory_entry &e : fs::directory_iterator(folder))
                if (e.is_regular_file())
                    inputs.push_back(e.path());
            std::sort(inputs.begin(), inputs.end());
            for (const fs::path &input : inputs) {
                std::ifstream in(input, std::ios::binary);
                const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
                std::printf("%s: %s (%zu bytes)\n", h->first.c_str(), input.filename().c_str(), bytes.size());
                std::fflush(stdout);
                h->second(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
                ++files;
            }
        }
    }
    std::printf("%d inputs replayed, none crashed\n", files);
    return 0;
}
