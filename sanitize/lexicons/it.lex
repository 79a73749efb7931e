lang it

[override]
verbs = ignora | ignori | ignorate | ignorare | dimentica | dimentichi | dimenticate | dimenticare | trascura | trascurate | tralascia | tralasciate | non seguire | smetti di seguire | smettete di seguire | non tenere conto | non considerare | scarta | scartate
quals = tutte | tutti | precedenti | precedente | sopra | di sopra | tue | tuoi | vostre | sue | originali | iniziali | del sistema | ricevute | date
nouns = istruzioni | indicazioni | regole | direttive | ordini | prompt | restrizioni | consegne
voids = non sono più valide | sono annullate | non valgono più | sono nulle | non si applicano più | decadono

[role]
nows = d'ora in poi sei | da ora in poi sei | ora sei | adesso sei | da adesso sei | d'ora in avanti sei | lei è ora
roles = senza restrizioni | senza limiti | senza regole | senza filtri | senza censura | dan | modalità sviluppatore
pretends = fingi di essere | fai finta di essere | finga di essere

[reveal]
verbs = mostra | mostrami | rivela | ripeti | stampa | dimmi | scrivi | elenca
objects = il tuo prompt di sistema | il prompt di sistema | il tuo messaggio di sistema | le tue istruzioni iniziali | le tue istruzioni originali | le tue istruzioni nascoste | il tuo prompt
