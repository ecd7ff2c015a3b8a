#pragma once

#include "store/rolloutimport.h"

#include <QString>
#include <QStringList>
#include <QWidget>

#include <optional>

class QLabel;
class QTableView;

namespace rwb::widgets {

class ImportMappingModel;
class ImportPreviewModel;

// What an import will make of a dump, before it runs (the import job's form): the
// trainer detected, the fields of the dump and what each becomes, and the first rows as
// they will be read, from store::previewImport (the import's own reading code, bounded to
// kRows rows: quick enough for the GUI thread). What it could not preview (parquet tables,
// which take Python) and what the import works out or skips are listed below. GUI thread
// only.
class ImportPreviewPanel : public QWidget {
    Q_OBJECT
public:
    // The rows a preview reads at most.
    static constexpr size_t kRows = 200;

    explicit ImportPreviewPanel(QWidget *parent = nullptr);

    // Previews `paths` with `options`, unless the same paths (of the same sizes and times)
    // and options were previewed last. Returns "" or the error the import would report
    // (file, line, field), which the panel shows.
    QString refresh(const QStringList &paths, const store::ImportOptions &options);
    // Shows no preview, and why ("choose a dump").
    void clear(const QString &why);

    ImportMappingModel *mapping() const { return m_mapping; }
    ImportPreviewModel *rows() const { return m_rows; }
    // The last preview (none after an error or clear()).
    const std::optional<store::ImportPreview> &preview() const { return m_preview; }
    QString summaryText() const;
    QString notesText() const;
    // "verl's rollout dump", "TRL's completions table", … (translated).
    static QString formatName(store::DumpFormat format);

protected:
    void changeEvent(QEvent *event) override;

private:
    void show(const QString &error);
    void retranslate();

    QLabel *m_summary;
    QLabel *m_mappingTitle;
    QTableView *m_mappingView;
    QLabel *m_rowsTitle;
    QTableView *m_rowsView;
    QLabel *m_notes;
    ImportMappingModel *m_mapping;
    ImportPreviewModel *m_rows;
    std::optional<store::ImportPreview> m_preview;
    QString m_key;   // what the last preview was of
    QString m_error; // its error ("" none)
    QString m_why;   // clear()'s reason
};

} // namespace rwb::widgets
