#pragma once

#include <string>
#include <vector>

namespace rwb::judge {
struct JudgeOptions;
}

namespace rwb::cli {

// Each takes the arguments after its command word ("reward", "eval", "bench", "data",
// "tokenizer", "model", "generate", "store") and returns the process exit code. They print
// errors themselves.
int rewardCommand(const std::vector<std::string> &args);
// "rwb task": a user's task from data (taskcommands.cpp).
int taskCommand(const std::vector<std::string> &args);
int evalCommand(const std::vector<std::string> &args);
int benchCommand(const std::vector<std::string> &args);
int dataCommand(const std::vector<std::string> &args);
int tokenizerCommand(const std::vector<std::string> &args);
int modelCommand(const std::vector<std::string> &args);
int generateCommand(const std::vector<std::string> &args);
int sftCommand(const std::vector<std::string> &args);
int grpoCommand(const std::vector<std::string> &args);
// "rwb bench grpo-step", called by benchCommand (lives with the training commands).
int grpoStepBench(const std::vector<std::string> &args);
// The body of "rwb eval run" (dispatched by evalCommand).
int evalRunCommand(const std::vector<std::string> &args);
int storeCommand(const std::vector<std::string> &args);
int retrieveCommand(const std::vector<std::string> &args);
int embedCommand(const std::vector<std::string> &args);
// "rwb bench embed", called by benchCommand (lives with the embedding command).
int embedBench(const std::vector<std::string> &args);
// "rwb bench store", called by benchCommand (lives with the store commands).
int storeBench(const std::vector<std::string> &args);
int judgeCommand(const std::vector<std::string> &args);
// The judge object of a file: its "judge" when it is a reward config, else the file
// (judgecommands.cpp). Throws data::InputException naming the file and field.
judge::JudgeOptions loadJudge(const std::string &path);
// "rwb prm": preference pairs, their labels and the process reward model (prmcommands.cpp).
int prmCommand(const std::vector<std::string> &args);
int rubricCommand(const std::vector<std::string> &args);
// "rwb serve": the OpenAI-compatible server (servecommands.cpp).
int serveCommand(const std::vector<std::string> &args);
// "rwb bench serve", called by benchCommand (lives with the serve command).
int serveBench(const std::vector<std::string> &args);
// "rwb mcts": tree search over reasoning steps (mctscommands.cpp).
int mctsCommand(const std::vector<std::string> &args);
// "rwb bench mcts", called by benchCommand (lives with the mcts command).
int mctsBench(const std::vector<std::string> &args);
// "rwb import": another trainer's rollout dump into a run of the store (importcommands.cpp).
int importCommand(const std::vector<std::string> &args);
// "rwb dist": the processes of a data-parallel group (distcommands.cpp).
int distCommand(const std::vector<std::string> &args);

} // namespace rwb::cli
