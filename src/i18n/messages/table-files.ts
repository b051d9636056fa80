/** Texts of the problems every uploaded table can have, CSV or Excel, whichever form reads it: bulk payouts and the partner's records. */
import { defineMessages } from '../define.js';

export const tableFiles = defineMessages({
  en: {
    'tableFile.file_empty': ':no_entry: The file is empty. Nothing was kept.',
    'tableFile.file_too_large': ':no_entry: The file is too large: it is over {size} MiB, the most this form reads{setting}. Nothing was kept.',
    'tableFile.file_encoding.bulk':
      ':no_entry: The file is not text in {encoding}: it holds bytes that encoding does not have (another encoding, or not a text file at all). Choose its encoding under "File encoding", or save it from your spreadsheet as "CSV UTF-8" or as an Excel workbook (.xlsx). Nothing was kept.',
    'tableFile.file_encoding.records':
      ':no_entry: The file is not text in {encoding}, the encoding its import profile names (another encoding, or not a text file at all). Save it in {encoding} or as an Excel workbook (.xlsx), or use a profile with its encoding. Nothing was kept.',
    'tableFile.file_unreadable':
      ':no_entry: The file cannot be read as CSV near line {line}: a quote is probably never closed. Close it, or save the file again from your spreadsheet. Nothing was kept.',
    'tableFile.file_too_many_rows': ':no_entry: The file has {rows} rows; at most {max} are read at once{setting}. Split it. Nothing was kept.',
    'tableFile.setting': ' (`{name}`)',
    'tableFile.xlsx_unreadable':
      ':no_entry: The file is a zip archive but not an Excel workbook (.xlsx) that can be opened, or it has no worksheet. Open it in Excel and save it again as .xlsx, or save its first sheet as "CSV UTF-8". Nothing was kept.',
    'tableFile.xlsx_too_large':
      ':no_entry: The workbook holds more than {size} MiB once unpacked, the most read for a file this form takes. Keep only the sheet you send, or save it as "CSV UTF-8". Nothing was kept.',
    'tableFile.xlsx_too_many_entries':
      ':no_entry: The workbook has more than {max} parts inside it. Copy the sheet you send into a new workbook, or save it as "CSV UTF-8". Nothing was kept.',
    'tableFile.xlsx_too_many_cells':
      ':no_entry: The first sheet has more than {max} cells holding something. Delete the rows and columns not needed, or split the file. Nothing was kept.',
    'tableFile.encoding.utf-8': 'UTF-8',
    'tableFile.encoding.utf-16': 'UTF-16',
    'tableFile.encoding.windows-1252': 'Windows-1252',
    'tableFile.encoding.iso-8859-1': 'ISO-8859-1',
    'tableFile.cell.cell_number_exponent':
      'cell {cell} holds {found}, a number Excel keeps only with an exponent, so its digits are not all there. Type the value in full in a column formatted as Text.',
    'tableFile.cell.cell_number_precision':
      'cell {cell} holds {found}, a number of more than 15 significant digits, which Excel does not keep exactly. Format the column as Text and type it again.',
    'tableFile.cell.cell_formula_uncached':
      'cell {cell} holds the formula {found} without its result (the program that saved the file did not compute it). Open the file in Excel and save it again, or type the value.',
    'tableFile.cell.cell_error': 'cell {cell} holds the error {found}. Fix the cell or its formula, then save the file again.',
    'tableFile.cell.number_scientific':
      '{found} is a number in scientific notation: the spreadsheet turned the phone number into a number and may have dropped its last digits. Format the column as Text, type the number in full with its +, and export again.',
    'tableFile.cell.number_scientific_at':
      'cell {cell} holds {found} as a number, not as text: its digits may be lost. Format the column as Text, type the number in full with its +, and save again.',
  },
  fr: {
    'tableFile.file_empty': ':no_entry: Le fichier est vide. Rien n’a été gardé.',
    'tableFile.file_too_large': ':no_entry: Le fichier est trop gros : il dépasse {size} Mio, le plus que lit ce formulaire{setting}. Rien n’a été gardé.',
    'tableFile.file_encoding.bulk':
      ':no_entry: Le fichier n’est pas du texte en {encoding} : il contient des octets que cet encodage n’a pas (un autre encodage, ou pas un fichier texte du tout). Choisissez son encodage sous « Encodage du fichier », ou enregistrez-le depuis votre tableur en « CSV UTF-8 » ou en classeur Excel (.xlsx). Rien n’a été gardé.',
    'tableFile.file_encoding.records':
      ':no_entry: Le fichier n’est pas du texte en {encoding}, l’encodage que nomme son profil d’import (un autre encodage, ou pas un fichier texte du tout). Enregistrez-le en {encoding} ou en classeur Excel (.xlsx), ou prenez un profil à son encodage. Rien n’a été gardé.',
    'tableFile.file_unreadable':
      ':no_entry: Le fichier ne se lit pas comme un CSV vers la ligne {line} : un guillemet n’est sans doute jamais fermé. Fermez-le, ou enregistrez de nouveau le fichier depuis votre tableur. Rien n’a été gardé.',
    'tableFile.file_too_many_rows': ':no_entry: Le fichier a {rows} lignes ; {max} au plus sont lues en une fois{setting}. Découpez-le. Rien n’a été gardé.',
    'tableFile.setting': ' (`{name}`)',
    'tableFile.xlsx_unreadable':
      ':no_entry: Le fichier est une archive zip mais pas un classeur Excel (.xlsx) qui s’ouvre, ou il n’a pas de feuille. Ouvrez-le dans Excel et enregistrez-le de nouveau en .xlsx, ou enregistrez sa première feuille en « CSV UTF-8 ». Rien n’a été gardé.',
    'tableFile.xlsx_too_large':
      ':no_entry: Le classeur dépasse {size} Mio une fois décompressé, le plus que lit ce formulaire. Ne gardez que la feuille envoyée, ou enregistrez-la en « CSV UTF-8 ». Rien n’a été gardé.',
    'tableFile.xlsx_too_many_entries':
      ':no_entry: Le classeur contient plus de {max} parties. Copiez la feuille envoyée dans un nouveau classeur, ou enregistrez-la en « CSV UTF-8 ». Rien n’a été gardé.',
    'tableFile.xlsx_too_many_cells':
      ':no_entry: La première feuille a plus de {max} cellules remplies. Supprimez les lignes et colonnes inutiles, ou découpez le fichier. Rien n’a été gardé.',
    'tableFile.encoding.utf-8': 'UTF-8',
    'tableFile.encoding.utf-16': 'UTF-16',
    'tableFile.encoding.windows-1252': 'Windows-1252',
    'tableFile.encoding.iso-8859-1': 'ISO-8859-1',
    'tableFile.cell.cell_number_exponent':
      'la cellule {cell} contient {found}, un nombre qu’Excel ne garde qu’avec un exposant : ses chiffres n’y sont pas tous. Tapez la valeur en entier dans une colonne au format Texte.',
    'tableFile.cell.cell_number_precision':
      'la cellule {cell} contient {found}, un nombre de plus de 15 chiffres significatifs, qu’Excel ne garde pas exactement. Mettez la colonne au format Texte et tapez-le de nouveau.',
    'tableFile.cell.cell_formula_uncached':
      'la cellule {cell} contient la formule {found} sans son résultat (le programme qui a enregistré le fichier ne l’a pas calculée). Ouvrez le fichier dans Excel et enregistrez-le de nouveau, ou tapez la valeur.',
    'tableFile.cell.cell_error': 'la cellule {cell} contient l’erreur {found}. Corrigez la cellule ou sa formule, puis enregistrez de nouveau le fichier.',
    'tableFile.cell.number_scientific':
      '{found} est un nombre en notation scientifique : le tableur a changé le numéro de téléphone en nombre et a pu perdre ses derniers chiffres. Mettez la colonne au format Texte, tapez le numéro en entier avec son +, et exportez de nouveau.',
    'tableFile.cell.number_scientific_at':
      'la cellule {cell} contient {found} en nombre, pas en texte : ses chiffres peuvent être perdus. Mettez la colonne au format Texte, tapez le numéro en entier avec son +, et enregistrez de nouveau.',
  },
});
