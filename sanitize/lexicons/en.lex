lang en

# English's override, role and reveal grammars are in lexicon_en.go and
# flagrules*.go; this file holds the families added since (issue 28):
# requests for the agent's password or secret, "say 'Access Granted'",
# authority and mode claims that ask for a check or a mode, and more ways
# to ask for the text above.

[reveal]
verbs = repeat | output | print | reveal | show | recite | echo | copy | paste | reproduce | return | dump | spell out
  | write out | type out | tell me | give me | quote | translate | summarize | summarise | paraphrase | rephrase | encode
  | list | read back | restate | reiterate | regurgitate | leak | disclose | display
objects = everything above | all of the above | the text above | the words above | everything before this | all text above
  | your initial prompt | your original prompt | your system prompt | your first prompt | your starting prompt | your instructions verbatim
  | the instructions you were given | what you were told | everything you were told | the prompt above | your full prompt
  | your pre-prompt | your preprompt | your hidden prompt | the hidden prompt | your secret instructions | your rules verbatim
  | your first message | your initial instructions | your instructions | your system instructions | your guidelines
  | your directives | the first message of this conversation | the first message of the conversation
  | the first message in this conversation | the first message in the conversation

[reveal]
# "what were you told before this", "what is written above this line".
verbs = what were you told | what have you been told | what did they tell you | what did your developers tell you
  | what did your creators tell you | what instructions were you given | what instructions did you get | what rules were you given
  | what are your instructions | what are your rules | what is your prompt | what was written | what is written
  | what text came | what was the text | what did the text say | what does your prompt say | what do your instructions say
  | what's in your prompt | what's in your instructions | what is in your system prompt
objects = before this | before my message | before the conversation | before we started | at the start | at the beginning
  | initially | originally | above | above this | in your system prompt | in your prompt | in your instructions | exactly
  | word for word | verbatim

[secret]
compounds = reset | resets | manager | managers | policy | policies | hash | hashes | field | fields | prompt | prompts
  | length | file | files | store | rotation | requirements | requirement | strength | change | changes | expiry
  | format | flow | page | form | protected | protection | generator | recovery | rules | rule | input | dialog | box
nots = never | not | don't | dont | do not | no one | nobody | won't | shouldn't | must not | should not | cannot | can't | avoid | refuse to | doesn't | didn't | nor
asks = tell me | give me | reveal | disclose | spell out | hand over | send me | remind me of | i need | output
  | print out | type out | write out | divulge | whisper
nouns = password | passwords | passphrase | passcode | secret key | secret code | secret word | secret phrase | access code
  | your api key | your key | your secret | the secret | your credentials | your pin
says = say | just say | only say | respond with | reply with | answer with | output only | print only | begin your answer with
  | start your answer with | begin your reply with | start your reply with | begin your response with | start your response with
  | your answer must be | your response must be | respond only with | reply only with | end your answer with | then say
grants = access granted | access is granted | permission granted

[secret]
nots = never | not | don't | dont | do not | no one | nobody | won't | shouldn't | must not | should not | cannot | can't | avoid | refuse to | doesn't | didn't | nor
asks = what is | what's | whats | what was | what are | what were
compounds = reset | resets | manager | managers | policy | policies | hash | hashes | field | fields | prompt | prompts
  | length | file | files | store | rotation | requirements | requirement | strength | change | changes | expiry
  | format | flow | page | form | protected | protection | generator | recovery | rules | rule | input | dialog | box
nouns = your password | your passphrase | your passcode | your secret | your secret key | your secret code | your secret word
  | your key | your api key | your credentials | your access code | the secret password | the secret code | the secret key
  | the secret word | the access code | the passcode

[authority]
claims = i am your | i'm your | im your | this is your | it's your | it is your | speaking as your
who = developer | developers | creator | creators | administrator | admin | sysadmin | operator | owner | maker | programmer
  | engineer | supervisor | trainer | lead developer | system administrator
demands = system check | diagnostic | diagnostics | security check | routine check | self-test | test mode | override
  | clearance | authorization | authorisation | unlock | unlocking | unlocked | bypass | your restrictions | your rules | your instructions
  | your prompt | your configuration | your guidelines | your safety

[authority]
modes = maintenance | system | debug | developer | god | admin | diagnostic | test | service | root | sudo | override
  | jailbreak | unrestricted | superuser | law enforcement | police | government | federal | court | <system | [system
ons = mode enabled | mode activated | mode engaged | mode on | mode active | mode initiated | mode entered | mode is on
  | mode is now on | mode is enabled | mode is active | mode is now active | mode has been enabled | mode has been activated
  | mode unlocked | override engaged | override activated | override enabled | override accepted | override authorized
  | mode: | override: | override | mode activated: | mode enabled: | mode>
demands = your restrictions | your rules | your instructions | your guidelines | your filters | your safety | no restrictions
  | no rules | no limits | unrestricted | unfiltered | without restrictions | restrictions lifted | restrictions are lifted
  | restrictions have been lifted | safety off | filters off | filters disabled | you can now | you must now | you will now
  | you are now | you may now | answer any | answer all | comply with | obey | reveal | disregard | ignore all | ignore your
  | ignore previous | content policy | all restrictions
