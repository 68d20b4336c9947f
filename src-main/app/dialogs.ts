import type {
  BrowserWindow,
  Dialog,
  MessageBoxOptions,
  OpenDialogOptions,
  SaveDialogOptions,
} from 'electron';
import { safeLine } from '../../src-shared/safe-text';
import { NOT_CONFIRMED, type ConfirmPort } from '../core/bridge/confirm';
import type { FilePicker } from '../core/bridge/ports';
import type { QuitQuestion } from '../core/gaps/decisions';
import type { FileSaver } from '../core/bridge/export-port';

/**
 * Main's own dialogs, the only places the user speaks to main without the page in between: the page can
 * neither draw nor click them. One confirms a change to what Postdesk runs; one chooses files to grant.
 */

type Parent = () => BrowserWindow | null;

/**
 * Index of the chosen button; the box is modal on the window while one is open. Its words pass the text door
 * (src-shared/safe-text.ts) here, whoever wrote them: the message is one line, and so is each line of the
 * detail: a line break inside one is shown as `\n`, never a line of its own.
 */
async function showMessageBox(
  dialog: Pick<Dialog, 'showMessageBox'>,
  parent: Parent,
  options: Omit<MessageBoxOptions, 'detail'> & { readonly detailLines: readonly string[] },
): Promise<number> {
  const { detailLines, ...rest } = options;
  const safe: MessageBoxOptions = {
    ...rest,
    message: safeLine(options.message),
    detail: detailLines.map((l) => safeLine(l)).join('\n'),
  };
  const win = parent();
  const { response } = win ? await dialog.showMessageBox(win, safe) : await dialog.showMessageBox(safe);
  return response;
}

/** The confirmation of a guarded settings change: a native message box whose default is Cancel. */
export function dialogConfirm(dialog: Pick<Dialog, 'showMessageBox'>, parent: Parent): ConfirmPort {
  return {
    async confirm(change) {
      const response = await showMessageBox(dialog, parent, {
        type: 'warning',
        title: 'Postdesk',
        message: change.title,
        detailLines: [...change.lines, '', 'Allow it only if you made this change yourself, in Settings.'],
        buttons: ['Cancel', 'Allow'],
        defaultId: 0,
        cancelId: 0,
        noLink: true,
      });
      return response === 1 ? { confirmed: true } : { confirmed: false, reason: NOT_CONFIRMED };
    },
  };
}

/** Quit while automations are due: a native message box whose default keeps Postdesk running. */
export function dialogAskToQuit(
  dialog: Pick<Dialog, 'showMessageBox'>,
  parent: Parent,
): (q: QuitQuestion) => Promise<boolean> {
  return async (q) => {
    const response = await showMessageBox(dialog, parent, {
      type: 'question',
      title: 'Postdesk',
      message: q.message,
      detailLines: [q.detail],
      buttons: ['Keep running', 'Quit'],
      defaultId: 0,
      cancelId: 0,
      noLink: true,
    });
    return response === 1;
  };
}

/** `files:pick`: the native open dialog; what the user chooses is granted by the bridge. */
export function dialogPicker(dialog: Pick<Dialog, 'showOpenDialog'>, parent: Parent): FilePicker {
  return {
    async pick({ purpose, folder }) {
      const options: OpenDialogOptions =
        purpose === 'csv'
          ? {
              title: 'Choose a CSV or JSON file',
              properties: ['openFile'],
              filters: [{ name: 'CSV or JSON', extensions: ['csv', 'json'] }],
            }
          : folder
            ? { title: 'Choose a folder of images and videos', properties: ['openDirectory'] }
            : {
                title: 'Choose images or videos',
                properties: ['openFile', 'multiSelections'],
                filters: [{ name: 'Images and videos', extensions: ['jpg', 'jpeg', 'png', 'webp', 'mp4'] }],
              };
      const win = parent();
      const r = win ? await dialog.showOpenDialog(win, options) : await dialog.showOpenDialog(options);
      return r.canceled ? [] : r.filePaths;
    },
  };
}

/** `exports:run`: the native save dialog; main writes the export where the user chose, the page never names it. */
export function dialogSaver(dialog: Pick<Dialog, 'showSaveDialog'>, parent: Parent): FileSaver {
  return {
    async save({ suggestedName, format }) {
      const options: SaveDialogOptions = {
        title: 'Export',
        defaultPath: suggestedName,
        filters:
          format === 'csv'
            ? [{ name: 'CSV (opens in spreadsheets, re-imports in Bulk)', extensions: ['csv'] }]
            : [{ name: 'JSON', extensions: ['json'] }],
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      };
      const win = parent();
      const r = win ? await dialog.showSaveDialog(win, options) : await dialog.showSaveDialog(options);
      return r.canceled || !r.filePath ? null : r.filePath;
    },
  };
}
