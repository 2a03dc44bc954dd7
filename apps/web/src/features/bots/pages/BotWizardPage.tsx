import Paper from '@mui/material/Paper';
import Step from '@mui/material/Step';
import StepLabel from '@mui/material/StepLabel';
import Stepper from '@mui/material/Stepper';
import { BOT, type Bot, MESSAGES } from '@parley/contracts';
import { useCallback, useState } from 'react';
import { PageHeader } from '../../../shared/components/PageHeader';
import { useNotify } from '../../../shared/hooks/useNotify';
import { useZodForm } from '../../../shared/lib/form';
import { useCreateBotMutation } from '../api';
import { WizardCreatedStep } from '../components/WizardCreatedStep';
import { WizardDetailsStep } from '../components/WizardDetailsStep';
import { WizardInstructionsStep } from '../components/WizardInstructionsStep';
import { WizardKnowledgeStep } from '../components/WizardKnowledgeStep';
import { WizardReviewStep } from '../components/WizardReviewStep';
import { setCreatedBot } from '../created-bot';
import { addBotFailure } from '../failure';
import { usePreviewUrl } from '../hooks/usePreviewUrl';
import { DetailsFields, InstructionsFields, type KnowledgeIds, NO_KNOWLEDGE } from '../schemas';

const STEPS = ['Details', 'Knowledge', 'Instructions & model', 'Review', 'Done'] as const;

/** /bot/new: the creation wizard. Each step checks its fields with the server's rules before moving on. */
export function BotWizardPage() {
  const notify = useNotify();
  const [step, setStep] = useState(0);
  const [image, setImage] = useState<File | null>(null);
  const imagePreview = usePreviewUrl(image);
  const [knowledge, setKnowledge] = useState<KnowledgeIds>(NO_KNOWLEDGE);
  const [knowledgeDefaulted, setKnowledgeDefaulted] = useState(false);
  // Once per wizard: what no bot uses yet joins whatever is ticked already.
  const applyKnowledgeDefaults = useCallback((unused: KnowledgeIds) => {
    setKnowledge((current) => ({
      file_group_ids: [...new Set([...current.file_group_ids, ...unused.file_group_ids])],
      web_source_ids: [...new Set([...current.web_source_ids, ...unused.web_source_ids])],
      notion_workspace_ids: [...new Set([...current.notion_workspace_ids, ...unused.notion_workspace_ids])],
    }));
    setKnowledgeDefaulted(true);
  }, []);
  const [created, setCreated] = useState<Bot | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const details = useZodForm(DetailsFields, { defaultValues: { bot_name: '', description: '' } });
  const instructions = useZodForm(InstructionsFields, {
    defaultValues: {
      prompt: '',
      llm_model: null,
      temperature: BOT.defaultTemperature,
      internet: false,
      max_citations: BOT.defaultCitations,
      human_button: 'after_miss',
      handoff_confidence: BOT.defaultHandoffConfidence,
      analytics: false,
    },
  });
  const [createBot, createState] = useCreateBotMutation();

  const create = async () => {
    const detailValues = DetailsFields.safeParse(details.getValues());
    const instructionValues = InstructionsFields.safeParse(instructions.getValues());
    if (!detailValues.success) return setStep(0);
    if (!instructionValues.success) return setStep(2);
    setFailure(null);
    const result = await createBot({
      input: { ...detailValues.data, ...knowledge, ...instructionValues.data },
      image,
    });
    if ('error' in result) {
      notify.error(addBotFailure(result.error));
      setFailure(MESSAGES.bots.createFailed);
      return;
    }
    notify.success(MESSAGES.bots.added);
    setCreatedBot(result.data.bot_id);
    setCreated(result.data);
    setStep(4);
  };

  return (
    <>
      <PageHeader title="Create bot" subtitle="Name it, give it knowledge, tell it how to answer." />
      <Stepper activeStep={step} alternativeLabel sx={{ mb: 3 }}>
        {STEPS.map((label) => (
          <Step key={label}>
            <StepLabel>{label}</StepLabel>
          </Step>
        ))}
      </Stepper>
      <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 }, maxWidth: 880, mx: 'auto' }}>
        {step === 0 ? (
          <WizardDetailsStep form={details} image={image} onImage={setImage} onNext={() => setStep(1)} />
        ) : null}
        {step === 1 ? (
          <WizardKnowledgeStep
            value={knowledge}
            onChange={setKnowledge}
            defaulted={knowledgeDefaulted}
            onDefaults={applyKnowledgeDefaults}
            onBack={() => setStep(0)}
            onNext={() => setStep(2)}
          />
        ) : null}
        {step === 2 ? (
          <WizardInstructionsStep form={instructions} onBack={() => setStep(1)} onNext={() => setStep(3)} />
        ) : null}
        {step === 3 ? (
          <WizardReviewStep
            details={DetailsFields.parse(details.getValues())}
            knowledge={knowledge}
            instructions={InstructionsFields.parse(instructions.getValues())}
            image={image}
            imagePreview={imagePreview}
            error={failure}
            busy={createState.isLoading}
            onKnowledge={() => setStep(1)}
            onBack={() => setStep(2)}
            onCreate={create}
          />
        ) : null}
        {step === 4 && created ? <WizardCreatedStep bot={created} /> : null}
      </Paper>
    </>
  );
}
