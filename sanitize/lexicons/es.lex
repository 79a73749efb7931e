lang es

[override]
verbs = ignora | ignore | ignoren | ignorar | ignorad | olvida | olvide | olviden | olvidar | olvidad | descarta | descarte | descartar | omite | omita | omitir | pasa por alto | pase por alto | no hagas caso | no haga caso | haz caso omiso | haga caso omiso | deja de seguir | deje de seguir | desobedece | desestima | desatiende | salta
quals = todas | todos | toda | anteriores | anterior | previas | previos | precedentes | de arriba | arriba | tus | sus | tu | originales | iniciales | del sistema | antes | recibidas | dadas
nouns = instrucciones | instrucción | indicaciones | órdenes | reglas | directrices | directivas | pautas | prompt | normas | restricciones | consignas
voids = quedan anuladas | ya no son válidas | ya no aplican | ya no se aplican | son nulas | quedan sin efecto | están anuladas | quedan invalidadas | dejan de tener efecto

[role]
nows = a partir de ahora eres | ahora eres | desde ahora eres | de ahora en adelante eres | a partir de ahora serás | ahora serás | a partir de ahora usted es
roles = sin restricciones | sin filtros | sin límites | sin reglas | sin censura | dan | liberado | modo desarrollador | que responde a todo
pretends = finge que eres | finge ser | haz como si fueras | finja que es

[reveal]
verbs = muestra | muéstrame | revela | revélame | repite | imprime | dime | escribe | enséñame | copia
objects = tu prompt del sistema | tu prompt de sistema | el prompt del sistema | el prompt de sistema | tus instrucciones iniciales | tus instrucciones originales | tus instrucciones ocultas | tu mensaje del sistema | las instrucciones del sistema | tu indicación del sistema
