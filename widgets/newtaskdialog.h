#pragma once

#include <QByteArray>
#include <QDialog>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

class LineNumberedEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QSplitter;
class QTextBrowser;
class QTimer;

namespace rwb::tokenizer {
class PromptFormat;
}

// File ▸ New task from data…: a user's own task made from their JSONL records, no code
// (tasks/user/, docs/your-task.md).
//
// The user picks the data file and the task's name; the description is drafted at once
// (task::draftTaskDescription, `rwb task init`'s guesses, each explained by a // comment)
// into an editable text, with the draft's notes under it. Beside it, the first records as
// the model will see them: each prompt rendered by UserTask::prompt in a model folder's
// prompt format (plain without one), its reference, the SFT target and the answer the
// description's extractor finds in that target. The preview follows the text 300 ms after
// the last edit. A description that does not read (a JSON syntax error's line is marked in
// the text), a record of the first 50 that does not read (the message names the file, line
// and field) or a bad name disables Create and is shown in the dialog's problem line; the
// text is never touched, and closing the dialog with edits asks first.
//
// Create writes NAME.task.json (the text as edited, comments kept) and a starter reward
// config NAME.reward.json ({"name", "task": "NAME.task.json", "components": one per metric
// of the description, weight 1, with its options}) into the output folder (the workspace
// folder when one is open, else the data file's folder), asks before overwriting either,
// emits created() and closes (accepted). The dialog itself loads nothing into the
// Designer: whoever opened it does, on created().
//
// GUI thread only. Reads at most the first 50 records of the data file, on the GUI
// thread: the preview costs a few milliseconds whatever the file's size.
class NewTaskDialog : public QDialog {
    Q_OBJECT
public:
    // `outputDir`: where Create writes ("" = beside the data file).
    explicit NewTaskDialog(const QString &outputDir = {}, QWidget *parent = nullptr);
    ~NewTaskDialog() override;

    // Takes a data file and, unless the user edited the description, drafts it again (a
    // name not yet chosen is guessed from the file's name). Renders the preview at once.
    void setDataFile(const QString &path);
    QString dataFile() const;
    // The task's name; renames it in the description text too (its "name" value, when the
    // text still holds the previous name).
    void setTaskName(const QString &name);
    QString taskName() const;
    // A model folder whose prompt format (tokenizer_config.json, the tokenizer) the preview
    // renders in; "" = plain. A folder that does not load says so and leaves plain.
    void setModelFolder(const QString &dir);
    QString modelFolder() const;
    // The description as the user sees it.
    QString descriptionText() const;
    void setDescriptionText(const QString &text);
    // A new draft from the data file, replacing the text (asks first when the user edited it).
    void draftAgain();

    // Where Create writes.
    QString outputDir() const;
    QString taskPath() const;
    QString rewardConfigPath() const;

    // Renders the preview and checks everything now (edits do it 300 ms after the last).
    void refresh();
    // Whether Create can write: the name, the description and the records read.
    bool canCreate() const;
    // What stops Create, or "" (the problem line's text).
    QString problem() const;
    // Writes both files (asking before overwriting either), emits created() and accepts.
    // False, writing nothing, when something does not read, the user declines to overwrite
    // or a file cannot be written (problem() says which).
    bool create();

    // Cancel, Escape or closing the window: asks first when the user edited the description.
    void reject() override;

    // Asks the user to confirm (title, text) before overwriting files, replacing edits with a
    // new draft or dropping them; the default asks with a message box; a test may answer
    // instead.
    void setConfirmationHandler(std::function<bool(const QString &, const QString &)> handler);

    QLineEdit *dataEdit() const { return m_dataEdit; }
    QLineEdit *nameEdit() const { return m_nameEdit; }
    QLineEdit *modelEdit() const { return m_modelEdit; }
    LineNumberedEdit *descriptionEdit() const { return m_description; }
    QTextBrowser *preview() const { return m_preview; }
    QSpinBox *recordCount() const { return m_count; }
    QPushButton *createButton() const { return m_create; }
    QLabel *problemLabel() const { return m_problem; }
    // The draft's notes (English, from core), one line each.
    QStringList notes() const { return m_notes; }

Q_SIGNALS:
    // Both files were written.
    void created(const QString &taskPath, const QString &rewardConfigPath);

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslate();
    void browseData();
    void browseModel();
    void onNameEdited(const QString &name);
    void renameInText(const QString &name);
    void onDescriptionEdited();
    void loadModelFormat();
    void showFormat();
    void draft();
    void showNotes();
    void updateDestination();
    void setProblem(const QString &text, bool hint = false);
    bool confirm(const QString &title, const QString &text);

    QString m_outputDir;
    QString m_appliedData;  // the data file in force (the line edit's text once finished)
    QString m_appliedModel; // the model folder in force
    QByteArray m_rewardConfig; // what Create writes as NAME.reward.json ("" while something does not read)
    QLabel *m_dataLabel;
    QLineEdit *m_dataEdit;
    QPushButton *m_dataBrowse;
    QLabel *m_nameLabel;
    QLineEdit *m_nameEdit;
    QLabel *m_nameHint;
    QLabel *m_modelLabel;
    QLineEdit *m_modelEdit;
    QPushButton *m_modelBrowse;
    QLabel *m_formatLabel;
    QLabel *m_destinationLabel;
    QLabel *m_destination;
    QSplitter *m_splitter;
    QLabel *m_descriptionTitle;
    LineNumberedEdit *m_description;
    QPushButton *m_draftAgain;
    QLabel *m_notesTitle;
    QLabel *m_notesView;
    QLabel *m_previewTitle;
    QLabel *m_countLabel;
    QSpinBox *m_count;
    QLabel *m_readStatus;
    QTextBrowser *m_preview;
    QLabel *m_problem;
    QPushButton *m_create;
    QPushButton *m_cancel;
    QTimer *m_debounce;

    QStringList m_notes;
    QString m_textName;        // the task name the description text holds, as last set here
    bool m_nameChosen = false; // the user typed a name: a new data file keeps it
    bool m_edited = false;     // the user edited the description since the last draft
    bool m_settingText = false;
    QString m_draftError;      // the data file could not be drafted from
    QString m_modelError;      // the model folder did not load
    std::unique_ptr<rwb::tokenizer::PromptFormat> m_format; // null: plain
    int m_readRecords = 0;     // records read by the last refresh
    bool m_readAll = false;    // … which were all the file's
    std::function<bool(const QString &, const QString &)> m_confirm;
};
