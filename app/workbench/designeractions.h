#pragma once

#include <QObject>
#include <QString>

#include <functional>

class QAction;
class QLabel;
class QWidget;
class NewTaskDialog;
class RewardDesigner;

// The Reward Designer's files: File → Open samples, the bundled sample sets (the default
// task's and legal QA's, each with its task's preset), New task from data (a user's task
// and its starter reward config, which the Designer then loads), Load / Save reward
// config; the samples and config a session starts with; and the status bar's samples
// label. GUI thread only.
class DesignerActions : public QObject {
    Q_OBJECT
public:
    // `workspaceDir` gives the open workspace's folder ("" none): where New task from data
    // writes its files (else beside the data).
    DesignerActions(QWidget *window, RewardDesigner *designer, std::function<QString()> workspaceDir = {});

    // Open samples, bundled samples, bundled legal-QA samples.
    QList<QAction *> sampleActions() const;
    // New task from data, Load, Save reward config.
    QList<QAction *> configActions() const;
    QAction *newTaskAction() const { return m_newTask; }
    QLabel *samplesStatus() const { return m_samplesStatus; }
    void retranslate();

    // The samples and the config given on the command line, else those of the last
    // session, else the bundled sample set and its task's preset (for the default task the
    // paper's best, table 2 *).
    void openInitialFiles(const QString &samples, const QString &config);
    void openBundledSamples();
    // File → New task from data: opens the dialog (window-modal, without blocking; it
    // deletes itself when closed) on `dataPath` ("" none yet) and returns it. When it has
    // written the task and its reward config, the Designer loads the config (its columns
    // become the task's metrics) and the status bar says what was written.
    NewTaskDialog *openNewTaskDialog(const QString &dataPath = {});

Q_SIGNALS:
    void notice(const QString &title, const QString &text);
    void statusMessage(const QString &text);

private:
    void updateSamplesStatus();

    void onTaskCreated(const QString &taskPath, const QString &rewardConfigPath);

    QWidget *m_window;
    RewardDesigner *m_designer;
    std::function<QString()> m_workspaceDir;
    QAction *m_openSamples;
    QAction *m_openBundled;
    QAction *m_openBundledLegal;
    QAction *m_newTask;
    QAction *m_loadConfig;
    QAction *m_saveConfig;
    QLabel *m_samplesStatus;
};
