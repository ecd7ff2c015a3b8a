// Not built with the project: how tests/data/tokenizer/spm_*/tokenizer.model and
// spm_golden.json were made with the real libsentencepiece (0.1.97, Debian bookworm), so
// that tst_tokenizer checks our reader against it. See README.md in this folder.
//
//   g++ -std=c++17 spm_golden.cpp -o spm_golden -lsentencepiece -lsentencepiece_train
//   ./spm_golden train PREFIX "TRAINER FLAGS"     (reads corpus.txt)
//   ./spm_golden encode MODEL < samples.txt        (one JSON object per sample line)
#include <sentencepiece_processor.h>
#include <sentencepiece_trainer.h>

#include <iostream>
#include <string>
#include <vector>

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    const std::string mode = argv[1];
    if (mode == "train") {
        const auto st = sentencepiece::SentencePieceTrainer::Train(
            "--input=corpus.txt --model_prefix=" + std::string(argv[2]) + " " + (argc > 3 ? argv[3] : ""));
        if (!st.ok()) {
            std::cerr << st.ToString() << "\n";
            return 1;
        }
        return 0;
    }
    sentencepiece::SentencePieceProcessor sp;
    if (!sp.Load(argv[2]).ok())
        return 1;
    std::string line;
    while (std::getline(std::cin, line)) {
        std::vector<int> ids;
        sp.Encode(line, &ids);
        std::string decoded;
        sp.Decode(ids, &decoded);
        std::cout << "{\"ids\":[";
        for (size_t i = 0; i < ids.size(); ++i)
            std::cout << (i ? "," : "") << ids[i];
        std::cout << "],\"decoded\":\"";
        for (unsigned char c : decoded) {
            if (c == '"' || c == '\\')
                std::cout << '\\' << c;
            else if (c == '\t')
                std::cout << "\\t";
            else
                std::cout << c;
        }
        std::cout << "\"}\n";
    }
    return 0;
}
