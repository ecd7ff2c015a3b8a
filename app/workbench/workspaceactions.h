#pragma once

#include "workspace.h"

#include <QObject>
#include <QString>

#include <functional>
#include <optional>

class QAction;
class QWidget;
class RewardDesigner;

namespace rwb::widgets {
class RunListModel;
class RunSetupForm;
} // namespace rwb::widgets

// The workspace the workbench works in (its data, models, configs and run store) and the
// File menu's ways in: New / Open workspace, Open run store, Import rollouts of another
// trainer. Opening a workspace sets up the training form (from its last GRPO run), the
// Designer's judge log and the run list. GUI thread only.
class WorkspaceActions : public QObject {
    Q_OBJECT
public:
    struct Views {
        RewardDesigner *designer;
        rwb::widgets::RunSetupForm *form;
        rwb::widgets::RunListModel *runs;
    };
    // `window` parents the dialogs; `currentStore` gives the store of the run shown (where
    // imports go when there is one).
    WorkspaceActions(QWidget *window, Views views, std::function<QString()> currentStore);

    const std::optional<rwb::widgets::Workspace> &workspace() const { return m_workspace; }
    // New workspace, Open workspace, Open run store, Import rollouts.
    QList<QAction *> actions() const;
    QAction *openWorkspaceAction() const { return m_openWorkspace; }
    void retranslate();

    bool openWorkspace(const QString &dir, QString *error);
    bool createWorkspace(const QString &dir, QString *error);
    // Reads another trainer's rollout dump (a folder or file) into a new run of the store
    // at `storePath`; logs what was skipped or kept only in the details. The run's id, or
    // 0 with `error` naming the file, line and field (nothing imported).
    qint64 importRollouts(const QString &dump, const QString &storePath, QString *error);

Q_SIGNALS:
    void workspaceOpened();
    // A run to show (the last of a store opened, an import).
    void runRequested(const QString &storePath, qint64 runId);
    void log(const QString &line);
    void notice(const QString &title, const QString &text);
    void statusMessage(const QString &text);

private:
    void newWorkspaceDialog();
    void openWorkspaceDialog();
    void openStoreDialog();
    void importRolloutsDialog();

    QWidget *m_window;
    Views m_views;
    std::function<QString()> m_currentStore;
    std::optional<rwb::widgets::Workspace> m_workspace;
    QAction *m_newWorkspace;
    QAction *m_openWorkspace;
    QAction *m_openStore;
    QAction *m_importRollouts;
};
