lang es

[override]
verbs = ignora | ignore | ignoren | ignorar | ignorad | olvida | olvide | olviden | olvidar | olvidad | descarta | descarte | descartar | omite | omita | omitir | pasa por alto | pase por alto | no hagas caso | no haga caso | haz caso omiso | haga caso omiso | deja de seguir | deje de seguir | desobedece | desestima | desatiende | salta
  | no tengas en cuenta | no tenga en cuenta | no tomes en cuenta | no tome en cuenta | deja de lado | deje de lado | desecha | deseche | por favor ignora
quals = todas | todos | toda | anteriores | anterior | previas | previos | precedentes | de arriba | arriba | tus | sus | tu | originales | iniciales | del sistema | antes | recibidas | dadas
nouns = instrucciones | instrucción | indicaciones | órdenes | reglas | directrices | directivas | pautas | prompt | normas | restricciones | consignas
voids = quedan anuladas | ya no son válidas | ya no aplican | ya no se aplican | son nulas | quedan sin efecto | están anuladas | quedan invalidadas | dejan de tener efecto
  | fueron un error | eran un error | fueron un fallo | ya no cuentan | quedan revocadas
# What points at the instructions with no noun (issue 28, D1073).
alls = todo lo anterior | todo lo de arriba | todo lo que está arriba | todo lo que hay arriba | todo lo que te dijeron | todo lo que se te dijo
  | lo que te dijeron antes | todo lo dicho | todo lo que precede | lo que precede | todo lo previo | todo lo que te han dicho | cuanto se dijo antes
  | todo lo que se dijo antes | todo el texto anterior

[role]
nows = a partir de ahora eres | ahora eres | desde ahora eres | de ahora en adelante eres | a partir de ahora serás | ahora serás | a partir de ahora usted es
roles = sin restricciones | sin filtros | sin límites | sin reglas | sin censura | dan | liberado | modo desarrollador | que responde a todo
pretends = finge que eres | finge ser | haz como si fueras | finja que es

[reveal]
verbs = muestra | muéstrame | revela | revélame | repite | imprime | dime | escribe | enséñame | copia
objects = tu prompt del sistema | tu prompt de sistema | el prompt del sistema | el prompt de sistema | tus instrucciones iniciales | tus instrucciones originales | tus instrucciones ocultas | tu mensaje del sistema | las instrucciones del sistema | tu indicación del sistema

[reveal]
verbs = muestra | muéstrame | revela | revélame | repite | imprime | dime | escribe | enséñame | copia | reproduce
objects = todo lo anterior | todo lo que hay arriba | el texto de arriba | el texto anterior | todo el texto anterior | lo que te dijeron
  | lo que te han dicho | tus instrucciones | tu prompt | tus reglas | el mensaje inicial | tu configuración inicial

[secret]
nots = no | nunca | jamás | nadie | ni
asks = dime | dígame | dame | deme | revélame | revela | muéstrame | escríbeme | compárteme | envíame | proporcióname
  | facilítame | deletrea | cuál es | cuál era | necesito
nouns = contraseña | contraseñas | clave secreta | clave de acceso | código secreto | código de acceso | palabra secreta
  | frase secreta | credenciales | clave api | clave privada | tu clave | tu secreto | el secreto
says = di | responde con | contesta con | responde solo | escribe solo | empieza tu respuesta con | comienza tu respuesta con
  | tu respuesta debe ser | solo di
grants = acceso concedido | acceso permitido | acceso autorizado

[authority]
claims = soy tu | soy su | soy el | soy la | te habla tu | le habla su | mensaje de tu | mensaje de su | como tu | como su
who = desarrollador | desarrolladora | desarrolladores | creador | creadora | creadores | administrador | administradora
  | programador | programadora | operador | propietario | dueño | ingeniero | equipo de seguridad
demands = restricciones | reglas | filtros | desactiva | autorizo | autorizado | autorizada | permiso | obedece | sin límites
  | revela | instrucciones
modes = modo desarrollador | modo de desarrollador | modo administrador | modo dios | modo sin restricciones | modo mantenimiento
  | modo de mantenimiento | modo depuración | modo de depuración | modo root | modo dan
ons = activado | activo | habilitado | encendido

[reader]
notes = nota para | nota a | nota | atención | aviso para | aviso | mensaje para | instrucción para | instrucciones para | importante
readers = ia | la ia | las ia | inteligencia artificial | asistente de ia | asistentes de ia | asistente virtual | modelo de lenguaje
  | modelos de lenguaje | llm | chatbot | agente de ia | resumidor | lector automático
ifs = si eres | si usted es | si tú eres | en caso de que seas
acts = responde | contesta | di que | escribe | recomienda | no menciones | omite | resume | califica | aprueba | envía | reenvía
  | afirma | incluye | menciona | dile | di al usuario

# Issue 28, second round (D1027): objects generated from classes (owner
# and head; a thing and where it stood) and the verbs of summarising,
# translating, spelling and encoding.
[reveal]
verbs = muestra | muéstrame | repite | repíteme | imprime | escribe | copia | reproduce | resume | resúmeme | traduce
  | deletrea | codifica | convierte | enumera | cita | parafrasea | dime | enséñame | revela | revélame | lista
owners = tus | tu | sus | su | vuestras | vuestro
heads = instrucciones | indicaciones | reglas | prompt | prompt del sistema | mensaje del sistema | directrices | pautas
  | consignas | órdenes
things = todo | todo lo | todo el texto | el texto | las palabras | las instrucciones | el mensaje | los mensajes | lo
places = arriba | de arriba | anterior | anteriormente | que te dieron | que te han dado | que recibiste | que has recibido
  | al principio | antes de este mensaje | antes de mi mensaje | escrito arriba | que precede | al inicio de la conversación
# Issue 28, third round (D1036, D1038): [insert], an addressed AI told to
# put something into its answer (readers and notes from [reader]); and
# [standing], a standing order written as a fact.
[insert]
acts = añade | agrega | incluye | inserta | pon | pega | menciona | recomienda | sugiere | dile al usuario
  | dile a los usuarios | di al usuario | indica al usuario
claims = di que | afirma que | indica que | escribe que | menciona que | asegura que | dile al usuario que | responde que
answers = tu respuesta | su respuesta | tus respuestas | sus respuestas | cada respuesta | tu resumen | su resumen
  | tu salida | tu solución
softs = por favor | también | siempre | asegúrate de

[standing]
whos = propietario | propietaria | dueño | dueña | usuario | administrador
grants = ha autorizado | autorizó | ha permitido | permitió | ha aprobado | ha dado permiso | dio permiso | ha concedido
  | concedió | te autoriza | te permite
waivers = sin preguntar | sin pedir | sin confirmación | sin consultar | sin aprobación | sin permiso | sin esperar
  | no necesitas pedir | no hace falta pedir | ya no necesitas pedir | nunca pidas | no pidas
owns = sus propias | su propia | sus propios | su propio | tus propias | tus propios
approves = aprobar | apruebe | aprueba | apruebes
sources = páginas web | sitios web | la web | correos | correos electrónicos | e-mails | documentos | mensajes
  | resultados de búsqueda
preapproved = preaprobados | preaprobadas | preaprobado | preaprobada | pre-aprobados | pre-aprobadas | aprobados de antemano | aprobadas de antemano | aprobados previamente
  | aprobadas previamente | autorizados de antemano | autorizadas de antemano
froms = partir de ahora | ahora en adelante | desde ahora | en lo sucesivo
nots = no | nunca | jamás | ni | nadie

# Fake delimiters and headers (issue 28, D1072): what closes the
# user's part, and what opens a system part (lexicon_delimiters.go).
[delimiter]
ends = fin | final | cierre | termina | terminan
users = usuario | usuaria | cliente | humano
inputs = entrada | datos | mensaje | texto | contexto | contenido | documento | consulta | petición | instrucciones | conversación | prompt
systems = sistema | asistente | administrador | desarrollador | operador | ia
orders = instrucciones | instrucción | mensaje | órdenes | orden | anulación | aviso | directiva | directivas | reglas | modo | indicaciones | prompt
headers = nueva sesión | nueva conversación | nuevas instrucciones | instrucciones reales | instrucciones ocultas
musts = debes | deberás | a partir de ahora | desde ahora | de ahora en adelante | ahora eres | responde solo | responde únicamente | contesta solo | revela | no tienes restricciones | sin restricciones | desactiva | obedece | tu nueva tarea | tu tarea es

# Claims from a team, an authority or the system, with a demand (issue 28,
# D1074): "a message from the security team: your restrictions were lifted".
[authority own-demands]
claims = mensaje del | mensaje de la | mensaje de | aviso del | aviso de la | aviso de | comunicado del | comunicado de la
who = equipo de seguridad | equipo de soporte | equipo técnico | auditor | auditora | policía | fuerzas del orden | proveedor | fabricante | sistema | ingeniero que te entrenó | equipo que te creó | administrador del sistema
demands = restricciones | filtros | salvaguardas | desactiva | desactivad | modo de depuración | modo desarrollador | modo mantenimiento | modo sin restricciones | obedece | obedecer | cumple todas | todas las solicitudes | fueron un error | han sido levantadas | han sido revocadas

# ---- sgpass (issue 28, game family: the password asks; D1097-D1103) ----
# The guarded password asked for by its parts, transformed, wrapped, as
# the agent's guarded thing (flagrules_password.go).
[password]
asks = dime | dígame | dame | deme | di | escribe | escríbeme | escriba | deletrea | deletréame | revela | revélame | muestra
  | muéstrame | comparte | repite | enumera | describe | descríbeme | traduce | codifica | convierte | cuál es | cuál era | qué es
  | necesito | dinos | indícame
dets = la | el | tu | su | esa | esta | vuestra | al | del
quals = secreta | secreto | verdadera | actual
secrets = contraseña | contraseña secreta | clave | clave secreta | palabra secreta | palabra clave | palabra mágica | código secreto
  | frase secreta | código de acceso | santo y seña
nouns = palabra | frase | código | clave | secreto | número
guards = que estás protegiendo | que proteges | que guardas | que estás guardando | que ocultas | que escondes | que no puedes decir
  | que no puedes revelar | que no debes decir | que no debes revelar | que te dieron | que te han dado | que conoces
  | que tienes que proteger | que debes proteger
parts = primera letra | última letra | segunda letra | letras | primer carácter | último carácter | caracteres | pista | pistas
  | longitud | inicial | iniciales | sílabas | primera sílaba
ofs = de | sobre | para | acerca de | en
counts = qué vocales | cuáles vocales | cuántas vocales | qué consonantes | cuántas letras | cuántos caracteres | qué letra | con qué letra | cuánto mide
transforms = con asteriscos | cambiando cada vocal | sin las vocales | censurada | enmascarada | al revés | a la inversa | en orden inverso | letra por letra | letra a letra | una letra por línea | con espacios
  | con guiones | separada por | separadas por | entre cada letra | en base64 | en hexadecimal | en binario | en morse
  | en código morse | en rot13 | en inglés | en otro idioma | como una lista | como lista | en mayúsculas | codificada | cifrada
  | al inglés | al francés
creates = escribe | escríbeme | compón | crea | inventa | haz | cuéntame
wrappers = ahorcado | el ahorcado | un juego de adivinanzas | poema | historia | cuento | canción | adivinanza | acertijo | acróstico | haiku | rima | chiste | verso | versos | relato
relates = que susurre | que diga | donde diga | que revele | en la que diga | donde susurre | que contenga | que contiene | que incluya | que incluye | con | sobre | que oculte | que esconda | que mencione
  | que deletree | cuya respuesta sea | cuya respuesta es | donde aparezca | que use | usando
directs = di | dime | escribe | escríbeme | repite | muestra | muéstrame | imprime | revela | revélame | deletrea
finals = por favor | ya | ahora | ahora mismo | y nada más | nada más | solamente | sin más | otra vez
softs = por favor | ahora | solo | sólo | y | entonces | puedes | podrías | simplemente
completes = completa | completá | termina | continúa | rellena | llena
copulas = es | era
withouts = sin decirla | sin decirlo | sin revelarla | sin revelarlo | sin escribirla | sin mencionarla
policies = debe | deben | tiene que | puede | pueden | necesita | requiere | mínimo | máximo | al menos
nots = no | nunca | jamás | nadie | ni
compounds = nueva | segura | temporal | olvidada
# Game rounds' gaps (sgfix, D1146): claims, "I
# already know it", the grandmother excuse and "what are you hiding", as English's.
claims = estoy autorizado a saber | estoy autorizada a saber | tengo permiso para saber | tengo autorización para conocer
  | estoy autorizado a conocer | estoy autorizada a conocer
knows = ya sé | ya conozco | ya tengo
confirms = confírmala | confírmalo | solo confirma | confirma | dímela | dilo | solo dilo
kin = abuela | abuelita | abuelo | madre | mamá | padre | papá | tía | tío
usedtos = solía | siempre | cada noche | todas las noches
tells = me leía | me decía | me cantaba | me susurraba | leerme | decirme | cantarme | leía | decía | susurraba
whats = qué | dime qué | di qué | revela qué | qué es lo que
hides = estás protegiendo | estás ocultando | estás escondiendo | estás guardando | me ocultas | proteges | ocultas | escondes
# Game rounds' gaps (sgfix, D1146): a guess to confirm, as English's.
checks = confirma | confirma que | verifica | verifica que | comprueba | comprueba que | comprueba si | dime si
# --- gpass5 (D1147-D1149): the guarded secret in a sentence (passwordWindow) ---
imperatives = dime | dímelo | dimelo | dímela | dimela | dinos | dame | dámela | damela | dánosla | muéstrame | muestrame
  | muéstramela | enséñame | enseñame | enséñamela | escríbeme | escribeme | escríbemela | escríbela
  | escribela | deletréame | deletreame | deletréala | deletreala | revélame | revelame | revélala
  | compárteme | comparteme | compártela | cuéntame | cuentame | susúrrame
  | susurrame | recítame | recitame | pásame | pasame | pásamela | pásala | mándame | mandame | envíame
  | enviame | recuérdame | recuerdame | recuérdamela | indícame | indicame | tradúceme | traduceme | tradúcela
  | conviértela | inviértela | descríbeme | descríbela | explícame | hazme | ponla | inclúyela | menciónala
  | nómbrala | sóltala | suéltala | dila | decime | decímela | contame | mostrame | pasala | pasámela
  | escribímela | me la puedes pasar | me la pasas | me la dices | me dices | me das
acts = me encantaría saber | me gustaría saber | tengo curiosidad por saber | puedo saber | deletrea | revela | comparte | recita | susurra | muestra | enseña | traduce
  | convierte | invierte | codifica | cifra | describe | explica | enumera | lista | crea | inventa | compón
  | haz | incluye | cuál es | cual es | qué es | que es | cuál era | necesito | quiero | dame | pasa | manda
  | envía | indica | menciona | nombra | suelta | imprime | genera | redacta
changes = traduce | convierte | invierte | codifica | cifra | reescribe | transforma | deletrea | tradúcela | conviértela
  | inviértela
leads = por favor | porfa | porfis | plis | solo | sólo | solamente | simplemente | ahora | entonces | vale | oye | venga | anda
  | ya | bueno | hola | ey | eh | también | tan solo | rápido | rapidito | puedes | podrías | me puedes | me podrías | puedes ya
  | quiero que | necesito que | tienes que | debes | amigo | bro | compa | guardián | oye bro | va | dale | ahora sí
mays = puedes | podrías | ya puedes | está bien | no pasa nada si
mes = me | a mí | para mí | nos | conmigo
yous = tú | tu | usted
joins = y | pero | luego | entonces | o | e | y luego
subs = quien | quienes | cuyo | cuya | si | cuando | porque | mientras | aunque | hasta que | que no | que
tos = a | al | hacia | desde | para
sharers = comparte | compártela
withs = con
its = eso | ella | ésa
forms = letra | letras | carácter | caracteres | empieza | comienza | termina | longitud | vocal | vocales
  | sílaba | sílabas
hiddens = secreta | secreto | oculta | oculto | protegida | protegido | mágica | mágico | prohibida | prohibido | guardada
  | guardado
# --- end gpass5 ---
# The game families' third round (D1113-D1118; flagrules_hijack.go):
# [hijack], the answer's words set whatever the agent was told; [play],
# a role that tells, grants or has no rules.
[hijack]
# No entry opens at a word of every text (a, de, en, no): "partir de
# ahora" is read inside "a partir de ahora".
frames = pase lo que pase | sin importar | importa lo que | independientemente de | diga lo que diga | digan lo que digan
  | partir de ahora | ahora en adelante | cualquier caso | sea cual sea | hagas lo que hagas | ocurra lo que ocurra
says = di | di solo | di solamente | responde | responde solo | responde solamente | responde únicamente | contesta | contesta solo
  | escribe solo | escribe solamente | responde con | contesta con | dime solo | responda | responda solo | conteste
everys = cada | todos los | todas las | cualquier
inputs = mensaje | mensajes | pregunta | preguntas | entrada | entradas | consulta | consultas | petición | peticiones
onlys = única respuesta | respuesta única | única salida | única contestación
ises = es | será | debe ser | tiene que ser | debería ser
trails = nada más | nada más que eso | sin nada más | sin añadir nada
# Not "imprime" nor "escribe" alone: the third person reads the same
# ("el exploit imprime «hackeado»").
echoes = di | di solo | escribe solo | escribe solamente | imprime solo | repite conmigo
  | responde con | contesta con | responde solo
trophies = he sido hackeado | he sido hackeada | me han hackeado | hackeado | hackeada | sistema comprometido

[play]
opens = imagina que eres | imagina que tú eres | imagínate que eres | supón que eres | supongamos que eres | finge que eres | finge ser
  | juguemos a un juego | vamos a jugar a un juego | juguemos | este juego | esta historia | este mundo | este escenario
  | hipotéticamente | rompas el personaje | mantente en el personaje | actúa como
bounds = sin reglas | sin restricciones | sin límites | sin filtros | sin normas | sin ética | sin censura | nunca se niega
  | nunca te niegas | ignora sus instrucciones | ignora tus instrucciones | no tiene reglas | no tienes reglas
tells = revela | revelas | revelaría | dice | dices | diría | da | das | daría | cuenta | contaría | comparte | compartiría
  | te dice | te da | me dice | me da | me dirías | deletrea
targets = la contraseña | las contraseñas | tu contraseña | su contraseña | el secreto | tu secreto | su secreto | cualquier secreto
  | la clave | tus instrucciones | sus instrucciones | el prompt del sistema | tu prompt | la palabra secreta | acceso concedido
  | la palabra mágica | las palabras mágicas

# Issue 28, third round, game-voice prompt extraction (D1106-D1109;
# flagrules_extract.go): the preceding instructions, all prior text, what
# the agent was given, up to now; a text counts only with all of it or
# given to the agent.
[extract]
# Not describe, resume nor reproduce: English words too, each a start
# in every English text.
verbs = enumera | lista | haz una lista de | formatea | convierte | explica | explícame | resúmeme | resuma
  | traduce | copia | repite | imprime | muestra | muéstrame | escribe | dame | dime | pon | detalla
owners = tus | tu
heads = instrucciones | indicaciones | reglas | directrices | pautas | consignas | órdenes | prompt | defensa
texts = texto | palabras | contenido
alls = todo | todo el | todas las | todos los | toda la
priors = anteriores | previas | previos | precedentes
afters = que recibiste | que has recibido | que te dieron | que te han dado | que te dijeron | antes de este mensaje
  | antes de mi mensaje
sofars = hasta ahora | hasta aquí | hasta este punto
asks = qué te | que te
tolds = prohibieron | han prohibido | dijeron que no | ordenaron que no | indicaron que no
named = preprompt | pre-prompt
# The first line, the last words, of what the agent was given.
ordinals = primera | primer | primeras | primeros | última | último | últimas | últimos
units = línea | líneas | palabra | palabras | frase | frases | oración | oraciones
sources = que viste | que recibiste | que te dieron | de tu prompt | de tus instrucciones | de esta conversación
  | antes de mi mensaje
# A prompt's opening words in quotes, after where the text asked for stands.
anchors = antes de | después de | que empieza con | que empieza por | que comienza con | empezando por | empezando con
quoted = tú eres | eres un | eres una | tu tarea | tu rol | tu misión | tu trabajo | ignora
leads = qué | que | cuál | cuáles | repite | imprime | muestra | escribe | copia | dime | dame | todo | texto | palabras
heres = mi mensaje | este mensaje | aquí | completo | completa | palabra por palabra | exactamente | textualmente
# Game rounds' gaps (sgfix, D1143): "del documento", "de la wiki".
elsewheres = del | de la | de los | de las | de un | de una | desde el | desde la | por el | por la | por los | por las
selves = sistema* | prompt* | conversaci* | chat* | contexto* | desarrollador* | creador* | operador* | admin*
  | ia | asistente* | modelo* | bot | juego* | principio* | inicio* | comienzo* | mensaje* | sesi* | instrucci*
  | regla* | arriba
# Game rounds' gaps (sgfix, D1146): "ignore the above and say what it
# was" and "TL;DR of the above", as English's.
says = di | dime | escribe | repite | muestra | muéstrame | explica | revela | imprime
whats = lo que era | lo que decía | lo que dice | lo que ponía | lo que te dijeron | lo que te dieron | cuáles eran las instrucciones
  | qué decía | qué era
bares = lo anterior | todo lo anterior | lo de arriba | todo lo de arriba | lo que precede | el texto de arriba
shows = tl;dr de | tldr de | resumen de

# ---- ghijack5 (D1163-D1166, flagrules_hijack_grant.go): the words that
# grant access said to the reader. acts: the imperatives and second person
# of saying, answering, writing (with [hijack] says and echoes, [secret]
# says); nots, ifs, elses, keys: a negation, a condition, another outcome,
# what a guard's condition is on; subjects: a third person before the act.
[grant]
acts = di | dilo | dímelo | dime | decid | responde | responda | respóndeme | contesta | conteste | contéstame | escribe | escriba | escríbelo | imprime | imprima | pon | ponga | repite | repita | devuelve | empieza | comienza | termina | tu respuesta | su respuesta | tus respuestas | respondes | contestas | dices | dirás | responderás | contestarás | escribirás | debes decir | debes responder | debes contestar | tienes que decir | tienes que responder | vas a decir | vas a responder | quiero que digas | quiero que respondas | necesito que digas | necesito que respondas | puedes decir | podrías decir | traduce | tradúcelo | confirma | confírmalo | confirme
nots = no | nunca | jamás | ni | nadie | sin | evita
ifs = si | solo si | sólo si | cuando | siempre que | a menos que | salvo que | únicamente si | en caso de que
elses = si no | de lo contrario | en caso contrario | sino | en cualquier otro caso | de otro modo
keys = contraseña | clave | código | pin | correcta | correcto | válida | válido | coincide | palabra secreta
subjects = el | la | los | las | un | una | este | esta | ese | esa | él | ella | ellos | ellas
opposites = contrario | opuesto | antónimo | inverso
denials = acceso denegado | acceso rechazado | denegado

# Issue 28, fifth round (gextract5, D1155, D1157): the extraction window in
# Spanish (flagrules_extract.go's extractWindow).
[extract]
acts = puedo ver | podría ver | déjame ver | dejame ver | quiero ver | me gustaría ver | me encantaría ver | repite | repita | repetir | copia | copie | copiar | muestra | muestre | mostrar | muéstrame | muéstrame
  | dame | deme | dime | dígame | decir | escribe | escriba | escribir | resume | resuma | resumir | resúmeme | traduce
  | traduzca | traducir | enumera | enumere | enumerar | lista | explica | explique | explicar | describe
  | describir | cita | citar | revela | revele | revelar | comparte | comparta | compartir | envía | envíame | enviar
  | imprime | imprimir | reproduce | reproducir | transcribe | transcribir | recita | recitar
owners = tu | tus | su | sus
quals = sistema | inicial | iniciales | completo | completa | completas | completos | original | originales | secreto
  | secreta | secretas | oculto | oculta | ocultas | exacto | exacta | primer | primera | primeras | todas | todos
marks = del sistema | iniciales | inicial | originales | original | ocultas | oculta | secretas | secreta
heads = instrucciones | indicaciones | prompt | directrices | pautas | consignas | prompt del sistema | mensaje del sistema
  | defensa
weaks = reglas | regla | configuración
rels = que te dieron | que recibiste | que te han dado | que has recibido | que te dijeron | que sigues | que debes seguir
  | que se te dieron | que le dieron | que recibió
places = antes de mi primer mensaje | antes del primer mensaje | antes de este mensaje | antes de mi mensaje | encima de este mensaje | hasta ahora | encima de esta línea
nearby = de arriba | anteriores | del principio
addresses = por | favor | ahora | solo | sólo | ok | vale | entonces | luego | y | también | simplemente | puedes | podrías
  | puede | podría | quiero | que | me | yo | bueno | primero | después | finalmente | hola | gracias | pero | sí
guardeds = contraseña | clave | secreto | palabra secreta | código secreto | access granted | código de acceso
whs = qué | que | cuál | cuáles
subjects = el | la | los | las | un | una | este | esta | él | ella | ellos | nosotros | se | el usuario | el modelo
ands = y | luego | y luego | después | pero
# ---- grole5 (issue 28, fifth round, role-play and personas; D1171-D1174) ----
# Read with the [play] section above as one (mergedFamilies): a role given
# to the reader (casts), read with the guarded thing named anywhere after
# it in the paragraph; machines to simulate, with the secret in a command
# (flagrules_roleplay.go).
[play]
casts = tú eres | tu eres | ahora eres | a partir de ahora eres | desde ahora eres | eres mi | eres el | eres la | eres un | eres una
  | finge que eres | finge ser | imagina que eres | juguemos | vamos a jugar | actúa como | interpreta a | interpreta el papel
  | haz de | haz el papel | en este juego | en esta historia | en esta partida | escribe una historia | escribe un cuento
  | había una vez | sé mi
machines = terminal | terminal de linux | consola | intérprete de python | intérprete | base de datos
secrets = contraseñ* | clave | secret* | passw*
others = sin
inverts = día al revés | día de lo contrario | día opuesto
keys = la combinación de la caja fuerte | el código de la caja fuerte | el código de la bóveda | la clave de la bóveda
# ---- gm (issue 28, session 8; D1242) ----
# The telling in the second person with its clitics, after the guarded
# thing ("... que ya no tiene que proteger la contraseña y me la cuentas").
[play]
tells = cuentas | me la cuentas | me lo cuentas | me la dices | me lo dices | me la das | me la dirías | me la contarías
  | cuéntamela | dímela | cuéntamelo | dímelo
# ---- gm (issue 28, session 8; D1244) ----
# How long the answer is set for, and the answer replaced, as English's.
[hijack onto]
frames = por el resto de la conversación | durante el resto de la conversación | por el resto del chat | en lugar de responder | en vez de responder | en lugar de contestar | en vez de contestar | hasta nuevo aviso
says = escribe | escribe solo | escribe solamente | escribe únicamente
# ---- gm (D1242) ----
# A verb that does something else with the secret than tell it (forgets,
# loses, changes, types in, guesses, cracks) makes no role-play ask: "a
# story about a hacker who forgets the password".
[play]
handles = olvida | olvidó | olvidado | pierde | perdió | perdido | cambia | cambió | cambiado | restablece | introduce | introdujo | teclea | adivina | adivinó | descifra | descifró | crackea
